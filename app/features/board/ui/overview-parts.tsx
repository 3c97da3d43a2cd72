import { Droppable } from '@hello-pangea/dnd'
import { createContext, useContext, type CSSProperties } from 'react'
import {
  foldedGoalLine,
  foldedReleaseLine,
  goalReleaseKey,
  progressOf,
  progressShare,
  progressShort,
  progressText,
  releaseSummary,
  zoomIn,
  zoomOut,
  type MapProgress,
  type Zoom,
} from '~/features/board/overview'
import { foldedDroppableId } from '~/features/board/drag-moves'

/**
 * The parts of the whole map at a glance (CONTRACT §15) that the board's rows and columns show.
 * The folds and the progress reach them through two contexts, past the memoised rows: a fold
 * re-renders the rows and columns, an edit only the few progress parts.
 */
export type Folds = {
  goals: ReadonlySet<string>
  releases: ReadonlySet<string>
  foldGoal: (id: string, folded: boolean) => void
  foldRelease: (id: string, folded: boolean) => void
}
const NONE: ReadonlySet<string> = new Set()
export const FoldsContext = createContext<Folds>({
  goals: NONE,
  releases: NONE,
  foldGoal: () => {},
  foldRelease: () => {},
})
export const useFolds = () => useContext(FoldsContext)

const NO_PROGRESS: MapProgress = {
  releases: new Map(),
  goals: new Map(),
  activities: new Map(),
  goalInRelease: new Map(),
}
export const ProgressContext = createContext<MapProgress>(NO_PROGRESS)

/** At 25 % tiles show their colour and first words; the whole title is their name and tooltip. */
export const TinyTilesContext = createContext(false)

/** `Collapse {title}` / `Expand {title}` on a goal or a release. */
export function FoldButton({
  title,
  folded,
  onFold,
}: {
  title: string
  folded: boolean
  onFold: (folded: boolean) => void
}) {
  return (
    <button
      type="button"
      className="fold-button"
      // Like the board's other buttons, out of the Tab order: the board is one Tab stop (README).
      tabIndex={-1}
      aria-expanded={!folded}
      aria-label={`${folded ? 'Expand' : 'Collapse'} ${title}`}
      onClick={() => onFold(!folded)}
    >
      <span aria-hidden="true">{folded ? '▸' : '▾'}</span>
    </button>
  )
}

/** `{d} of {n} done` and a bar, on a release. */
export function ReleaseProgress({ milestoneId }: { milestoneId: string }) {
  const summary = releaseSummary(useContext(ProgressContext), milestoneId)
  return (
    <span className="release-progress">
      <span className="progress-bar" aria-hidden="true">
        <span style={{ width: `${Math.round(progressShare(summary) * 100)}%` }} />
      </span>
      <span className="progress-text">{progressText(summary)}</span>
    </span>
  )
}

/** `{d}/{n}` on a goal or an activity tile. */
export function CardProgress({ kind, id }: { kind: 'goal' | 'activity'; id: string }) {
  const progress = useContext(ProgressContext)
  const value = progressOf(kind === 'goal' ? progress.goals : progress.activities, id)
  return (
    // Drawn from data-text, like the size (app.css): text inside the tile would break its name.
    <span className="card-progress" aria-hidden="true" data-text={progressShort(value)} />
  )
}

/** A folded release's one line, `{n} features · size {s} · {d} of {n} done`; a feature dropped on it lands in it. */
export function FoldedRelease({ milestoneId, readOnly }: { milestoneId: string; readOnly: boolean }) {
  const summary = releaseSummary(useContext(ProgressContext), milestoneId)
  return (
    <Droppable droppableId={foldedDroppableId(milestoneId)} type="FEATURE" isDropDisabled={readOnly}>
      {(drop, snapshot) => (
        <div
          className={`folded-release ${snapshot.isDraggingOver ? 'over' : ''}`}
          ref={drop.innerRef}
          {...drop.droppableProps}
        >
          <span className="folded-line">{foldedReleaseLine(summary)}</span>
          <span className="progress-bar" aria-hidden="true">
            <span style={{ width: `${Math.round(progressShare(summary) * 100)}%` }} />
          </span>
          {drop.placeholder}
        </div>
      )}
    </Droppable>
  )
}

/** A folded goal under its card: `{n} activities`. */
export function FoldedGoal({ activities }: { activities: number }) {
  return <p className="folded-goal">{foldedGoalLine(activities)}</p>
}

/** A folded goal's one narrow cell in a release: the number of its features there. */
export function FoldedGoalCell({ goalId, milestoneId }: { goalId: string; milestoneId: string }) {
  const count = useContext(ProgressContext).goalInRelease.get(goalReleaseKey(goalId, milestoneId)) ?? 0
  return (
    <div className="cell folded-cell">
      <span className="folded-count">
        {count}
        <span className="sr-only"> features</span>
      </span>
    </div>
  )
}

export const zoomStyle = (zoom: Zoom) => ({ '--zoom': zoom / 100 }) as CSSProperties

/** `Zoom out`, the level, `Zoom in` and `Fit` (keys `-`, `=`, `0`). */
export function ZoomControls({
  zoom,
  onZoom,
  onFit,
}: {
  zoom: Zoom
  onZoom: (zoom: Zoom) => void
  onFit: () => void
}) {
  return (
    <div className="zoom-controls" role="group" aria-label="Zoom">
      <button
        type="button"
        className="button small"
        aria-label="Zoom out"
        aria-keyshortcuts="-"
        onClick={() => onZoom(zoomOut(zoom))}
      >
        <span aria-hidden="true">−</span>
      </button>
      <output className="zoom-level" aria-live="polite">{`${zoom} %`}</output>
      <button
        type="button"
        className="button small"
        aria-label="Zoom in"
        aria-keyshortcuts="="
        onClick={() => onZoom(zoomIn(zoom))}
      >
        <span aria-hidden="true">+</span>
      </button>
      <button type="button" className="button small" aria-keyshortcuts="0" onClick={onFit}>
        Fit
      </button>
    </div>
  )
}
