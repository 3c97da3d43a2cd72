import { Draggable, Droppable, type DraggableProvided } from '@hello-pangea/dnd'
import { memo, useContext, useMemo, useRef, type CSSProperties } from 'react'
import { useBrowserLayoutEffect } from '~/ui/use-browser-layout-effect'
import { cellKey, type GoalColumn } from '~/features/board/board-grid'
import { partOf } from '~/lib/counts'
import { mostCardsInACell } from '~/features/board/overview'
import type { Feature, Milestone, Tag } from '~/features/map/bundle-types'
import { cellDroppableId, cellName } from '~/features/board/drag-moves'
import { printGridColumn, type PrintLayout, type PrintPlace } from '~/features/board/print-layout'
import { useCardFilterStore } from './card-filter-store'
import { CardTile } from './card-tile'
import { tagLabelsKey } from './tags'
import { useDragReady, useNearViewport } from './near-viewport'
import {
  FoldButton,
  FoldedGoalCell,
  FoldedRelease,
  ReleaseProgress,
  TinyTilesContext,
  useFolds,
} from './overview-parts'
import type { NewCardTarget } from './new-card-modal'

/**
 * The rows and columns of the story map. Each part takes plain values and stable callbacks and
 * is memoised, so after an edit only the columns, rows and cells whose cards changed re-render
 * (see buildGrid's reuse of unchanged parts). The search and filters reach the feature tiles
 * through their own store (card-filter-store.tsx), past these parts.
 */
export type BoardLinks = {
  readOnly: boolean
  basePath: string
  search: string
  /** A big map: far cells' cards become the drag library's when they come near (near-viewport.tsx). */
  lazyDrag: boolean
  /** The project's tags by id (a new map only when the tags change). */
  tagsById: ReadonlyMap<string, Tag>
}
export type OnAdd = (target: NewCardTarget) => void

/** A goal's width: a column per activity (`--column` follows the zoom), or one narrow column folded. */
export const columnsWidth = (goal: GoalColumn, folded = false) =>
  folded ? 'var(--folded-column)' : `calc(var(--column) * ${Math.max(1, goal.activities.length)})`

/** Where a part sits in the print grid (app/styles/print.css reads these properties). */
export const printStyle = (place: PrintPlace | undefined, span = 1) =>
  (place
    ? { ...(place.band > 0 ? { '--band': place.band } : {}), '--print-column': printGridColumn(place, span) }
    : {}) as CSSProperties

type ReleaseProps = BoardLinks & {
  milestone: Milestone
  size: number
  count: number
  /** Its closed features left out of `size` and `count`: the count then says `open features`. */
  closedLeftOut: number
  /** The release's sums under the search and filters; null without them. */
  filteredSize: number | null
  filteredCount: number | null
  index: number
  goals: GoalColumn[]
  cells: Map<string, Feature[]>
  includeClosed: boolean
  onAdd: OnAdd
  print: PrintLayout
}

/**
 * Equal when nothing these props show changed: the other props, and the feature list of each
 * of the row's cells (`cells` is a new Map after every edit, but buildGrid keeps unchanged
 * lists). A drop then re-renders the one or two rows it touched, not all of them.
 */
function sameRow<P extends { milestone: Milestone; goals: GoalColumn[]; cells: Map<string, Feature[]> }>(
  before: P,
  after: P,
) {
  for (const key of Object.keys(after) as (keyof P)[]) {
    if (key !== 'cells' && before[key] !== after[key]) return false
  }
  return after.goals.every((goal) =>
    goal.activities.every((activity) => {
      const key = cellKey(after.milestone.id, activity.id)
      return before.cells.get(key) === after.cells.get(key)
    }),
  )
}

const totalsText = (value: number, filtered: number | null) =>
  filtered === null ? `${value}` : `${filtered} of ${value}`

/** One release: its header and a cell per activity. Cells whose features did not change skip rendering. */
export const ReleaseRow = memo(function ReleaseRow({
  milestone,
  size,
  count,
  closedLeftOut,
  filteredSize,
  filteredCount,
  index,
  goals,
  cells,
  onAdd,
  print,
  ...view
}: ReleaseProps) {
  const { readOnly, basePath, search } = view
  const folds = useFolds()
  const folded = folds.releases.has(milestone.id)
  const noun = closedLeftOut > 0 ? 'open feature' : 'feature'
  const stats = `Size ${totalsText(size, filteredSize)} · ${partOf(filteredCount, count, noun)}`
  return (
    <Draggable draggableId={milestone.id} index={index} isDragDisabled={readOnly}>
      {(drag, snapshot) => (
        <section
          className={`release ${snapshot.isDragging ? 'dragging' : ''} ${folded ? 'folded' : ''}`}
          ref={drag.innerRef}
          {...drag.draggableProps}
          style={{ ...drag.draggableProps.style, ...({ '--release': index } as CSSProperties) }}
          aria-label={`Release ${milestone.title}`}
        >
          <div className="release-header">
            <FoldButton
              title={milestone.title}
              folded={folded}
              onFold={(fold) => folds.foldRelease(milestone.id, fold)}
            />
            <h2 className="board-heading">
              <CardTile
                to={`${basePath}/m/${milestone.id}${search}`}
                title={milestone.title}
                color={milestone.color}
                status={milestone.status}
                annotations={milestone.annotations}
                kindLabel="Release"
                className="release-card"
                dragHandle={drag.dragHandleProps}
                navId={milestone.id}
              />
            </h2>
            {folded ? (
              <FoldedRelease milestoneId={milestone.id} readOnly={readOnly} />
            ) : (
              <>
                <span className="release-stats">{stats}</span>
                <ReleaseProgress milestoneId={milestone.id} />
              </>
            )}
          </div>
          {folded ? null : (
            <>
              {Array.from({ length: Math.max(0, print.bands - 1) }, (_, i) => (
                <p
                  key={i}
                  className="print-only print-release-label"
                  style={{ '--band': i + 1 } as CSSProperties}
                >
                  <strong>{milestone.title}</strong> {stats}
                </p>
              ))}
              <ReleaseCells
                milestone={milestone}
                goals={goals}
                cells={cells}
                onAdd={onAdd}
                print={print}
                {...view}
              />
            </>
          )}
        </section>
      )}
    </Draggable>
  )
}, sameRow)

type ReleaseCellsProps = Omit<
  ReleaseProps,
  'size' | 'count' | 'closedLeftOut' | 'filteredSize' | 'filteredCount' | 'index'
>

/** The row's cells, apart from its header: the filtered totals change with every keystroke, the cells do not. */
const ReleaseCells = memo(function ReleaseCells({
  milestone,
  goals,
  cells,
  onAdd,
  print,
  ...view
}: ReleaseCellsProps) {
  // Groups off the screen are not laid out (content-visibility); their height until then is
  // estimated from the row's fullest cell (app.css), so a row of two cards is not drawn as tall
  // as a fixed guess: at 25 % that guess made every row four times its height.
  const rowCards = mostCardsInACell(
    goals.flatMap((goal) => goal.activities.map((a) => cells.get(cellKey(milestone.id, a.id)))),
    view.includeClosed,
  )
  return (
    <div className="release-cells" style={{ '--row-cards': rowCards } as CSSProperties}>
      {goals.map((goal) => (
        <CellGroup
          key={goal.workflow.id}
          goal={goal}
          milestone={milestone}
          cells={cells}
          onAdd={onAdd}
          print={print}
          {...view}
        />
      ))}
    </div>
  )
}, sameRow)

type CellGroupProps = BoardLinks & {
  goal: GoalColumn
  milestone: Milestone
  cells: Map<string, Feature[]>
  includeClosed: boolean
  onAdd: OnAdd
  print: PrintLayout
}

/** The cells of one goal in one release; they accept drops while near the screen (near-viewport.tsx). */
function CellGroup({ goal, milestone, cells, onAdd, print, ...view }: CellGroupProps) {
  const ref = useRef<HTMLDivElement>(null)
  const near = useNearViewport(ref)
  const dragReady = useDragReady(near, view.lazyDrag, ref)
  const cardFilter = useCardFilterStore()
  // The tiles were made anew: the search's highlights go to their new text.
  useBrowserLayoutEffect(() => {
    if (dragReady && view.lazyDrag && ref.current) cardFilter?.refresh(ref.current)
  }, [dragReady, view.lazyDrag, cardFilter])
  const folded = useFolds().goals.has(goal.workflow.id)
  if (folded)
    return (
      <div className="cell-group folded" ref={ref} style={{ width: columnsWidth(goal, true) }}>
        <FoldedGoalCell goalId={goal.workflow.id} milestoneId={milestone.id} />
      </div>
    )
  return (
    <div className="cell-group" ref={ref} style={{ width: columnsWidth(goal) }}>
      {goal.activities.length === 0 ? (
        <div className="cell placeholder" style={printStyle(print.columns.get(goal.workflow.id))} />
      ) : null}
      {goal.activities.map((activity) => (
        <Cell
          key={activity.id}
          milestoneId={milestone.id}
          milestoneTitle={milestone.title}
          activityId={activity.id}
          activityTitle={activity.title}
          features={cells.get(cellKey(milestone.id, activity.id))}
          onAdd={onAdd}
          dragReady={dragReady}
          dropEnabled={near}
          place={print.columns.get(activity.id)}
          {...view}
        />
      ))}
    </div>
  )
}

type CellProps = BoardLinks & {
  milestoneId: string
  milestoneTitle: string
  activityId: string
  activityTitle: string
  features: Feature[] | undefined
  includeClosed: boolean
  /** False: plain tiles in a plain cell, the same in the page, until the group comes near. */
  dragReady: boolean
  dropEnabled: boolean
  onAdd: OnAdd
  place: PrintPlace | undefined
}

/** A cell shows cards (the search may hide some, but they stay in the page). */
const cellHasCards = (features: Feature[] | undefined, includeClosed: boolean) =>
  (features ?? []).some((f) => includeClosed || f.status !== 'CLOSED')

const Cell = memo(function Cell({
  milestoneId,
  milestoneTitle,
  activityId,
  activityTitle,
  features,
  onAdd,
  readOnly,
  includeClosed,
  dragReady,
  dropEnabled,
  basePath,
  search,
  place: printPlace,
  tagsById,
}: CellProps) {
  // The drag library re-renders every cell's Droppable when a drag starts and ends; handing it
  // the same card elements each time lets React skip the thousands of cards inside. Cards left
  // out by the search stay mounted (hidden), so typing never remounts draggables.
  // The cell is a group named by its place; its cards say the place first in their description.
  const name = cellName(milestoneTitle, activityTitle)
  const placeId = `place-${milestoneId}-${activityId}`
  const placeText = `In ${name}.`
  // At 25 % the tiles carry their place as an attribute, and only an empty cell has its `+`:
  // two elements fewer per cell where the whole map is on screen (ADR 39).
  const tiny = useContext(TinyTilesContext)
  const place = tiny ? null : (
    <span id={placeId} hidden>
      {placeText}
    </span>
  )
  const cards = useMemo(() => {
    const shown = (features ?? []).filter((f) => includeClosed || f.status !== 'CLOSED')
    const tile = (f: Feature, provided?: DraggableProvided, dragging?: boolean) => (
      <CardTile
        key={f.id}
        to={`${basePath}/f/${f.id}${search}`}
        title={f.title}
        color={f.color}
        status={f.status}
        annotations={f.annotations}
        size={f.estimate}
        kindLabel="Feature"
        className="feature-card"
        provided={provided}
        dragging={dragging}
        navId={f.id}
        searchable
        tags={tagLabelsKey(f.tagIds, tagsById)}
        issue={
          f.issue ??
          (f.github ? { provider: 'github', key: `#${f.github.number}`, status: null, ...f.github } : null)
        }
        placeId={placeId}
        placeText={placeText}
      />
    )
    if (!dragReady) return shown.map((f) => tile(f))
    return shown.map((f, i) => (
      <Draggable key={f.id} draggableId={f.id} index={i} isDragDisabled={readOnly}>
        {(d, s) => tile(f, d, s.isDragging)}
      </Draggable>
    ))
  }, [features, includeClosed, readOnly, basePath, search, dragReady, tagsById, placeId, placeText])
  const cellId = cellDroppableId(milestoneId, activityId)
  const addButton =
    !readOnly && !(tiny && cellHasCards(features, includeClosed)) ? (
      <button
        type="button"
        className="add-feature"
        tabIndex={-1}
        onClick={() => onAdd({ kind: 'feature', milestoneId, subWorkflowId: activityId })}
        aria-label={`Add feature to ${name}`}
      />
    ) : null
  if (!dragReady) {
    return (
      <div className="cell" role="group" aria-label={name} data-cell={cellId} style={printStyle(printPlace)}>
        {cards}
        {addButton}
        {place}
      </div>
    )
  }
  return (
    <Droppable droppableId={cellId} type="FEATURE" isDropDisabled={readOnly || !dropEnabled}>
      {(drop, snapshot) => (
        <div
          className={`cell ${snapshot.isDraggingOver ? 'over' : ''}`}
          ref={drop.innerRef}
          {...drop.droppableProps}
          role="group"
          aria-label={name}
          data-cell={cellId}
          style={printStyle(printPlace)}
        >
          {cards}
          {drop.placeholder}
          {addButton}
          {place}
        </div>
      )}
    </Droppable>
  )
})
