import { useNavigate } from 'react-router'
import type { DraggableProvided, DraggableProvidedDragHandleProps } from '@hello-pangea/dnd'
import {
  createContext,
  memo,
  useCallback,
  useContext,
  useEffect,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
} from 'react'
import { takeHeldCardClick } from '~/ui/early-click'
import { ANNOTATION_LABELS, annotationList } from '~/features/map/vocabulary'
import { colorFill } from '~/features/map/colors'
import { AnnotationIcon } from './annotation-icon'
import { useFilteredOut } from './card-filter-store'
import { TagLabels, tagNamesOf } from './tags'
import { TinyTilesContext } from './overview-parts'
import { firstWords } from '~/features/board/overview'
import { dragWords } from '~/features/board/drag-moves'

type Props = {
  to: string
  title: string
  color: string
  status: string
  annotations: string
  /** Shown bottom-right: a feature's size, an activity's or goal's sum. */
  size?: number | null
  /** Under a filter: the sum of the shown features, written `5 of 14`. */
  filteredSize?: number | null
  kindLabel: string
  className?: string
  /** Draggable and handle at once (activities, features). */
  provided?: DraggableProvided
  /** Only the handle, when the draggable is a larger block (goal column, release row). */
  dragHandle?: DraggableProvidedDragHandleProps | null
  dragging?: boolean
  /** The card's id. */
  navId: string
  /**
   * A feature: the search and filters may leave it out (it stays in the page, taking no room
   * and no focus) and highlight its title (card-filter-store.tsx).
   */
  searchable?: boolean
  /** A feature's tags (tagLabelsKey in tags.tsx): one string, so the memo holds. */
  tags?: string
  /** A feature: the element that names its cell (`In MVP / Search.`), read first in its description. */
  placeId?: string
  /** The same words, for a 25 % tile: its description is an attribute, its cell has no such element. */
  placeText?: string
  /** A feature's issue on its tracker (CONTRACT §13, §14), or null. */
  issue?: TileIssue | null
  children?: React.ReactNode
}

/**
 * Opens a card's dialog route in the app. A router `<Link>` in every tile would re-render all
 * the thousands of tiles on each router update (its route context changes); this context never
 * changes, so tiles render only when their own card does.
 */
const OpenCardContext = createContext<(to: string) => void>(() => {})

export function OpenCardProvider({ query, children }: { query: () => string; children: ReactNode }) {
  const navigate = useNavigate()
  // Tiles link without the search and filters (their links would change on every keystroke);
  // the dialog opens with the board's current query, so closing it returns to the same view.
  const open = useCallback(
    (to: string) => navigate(`${to.split('?')[0]}${query()}`, { preventScrollReset: true }),
    [navigate, query],
  )
  // A card clicked while the page was still loading its script opens now (early-click.ts).
  useEffect(() => {
    const held = takeHeldCardClick()
    if (held) open(held)
  }, [open])
  return <OpenCardContext.Provider value={open}>{children}</OpenCardContext.Provider>
}

/** A feature's issue as its tile shows it: `#12` (GitHub, GitLab) or `SHOP-12` (Jira). */
export type TileIssue = { provider: string; key: string; url: string; state: string; status: string | null }

const TRACKER_NAMES: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', jira: 'Jira' }

/** `GitHub issue #12 (open)`, `Jira issue SHOP-12 (In Progress)`: the tile's title and description. */
const issueLabel = (issue: TileIssue) =>
  `${TRACKER_NAMES[issue.provider] ?? 'Tracker'} issue ${issue.key} (${issue.status ?? issue.state})`

/**
 * `#12` or `SHOP-12` on a feature tile: a click opens the issue on its tracker. The tile is itself a link, which
 * cannot hold another, so this is a plain mark (screen readers hear it in the tile's
 * description); the card dialog has the issue's real link.
 */
function IssueNumber({ issue }: { issue: TileIssue }) {
  return (
    <span
      className={`card-issue ${issue.state}`}
      aria-hidden="true"
      title={issueLabel(issue)}
      data-testid="card-issue"
      onClick={(event) => {
        if (!opensInPlace(event)) return
        event.preventDefault()
        event.stopPropagation()
        window.open(issue.url, '_blank', 'noopener')
      }}
    >
      {issue.key}
    </span>
  )
}

/** A plain left click opens in place; modified clicks and clicks the drag library cancelled keep the browser's way. */
function opensInPlace(event: MouseEvent) {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  )
}

/**
 * One card on the board: a link to its dialog, and the drag handle when dragging is allowed.
 * Its accessible name starts with the visible title, then says the kind: `Pay (feature, closed)`.
 * Tiles are out of the Tab order; the board's keyboard hook gives one of them tabindex 0.
 */
export const CardTile = memo(function CardTile({
  to,
  title,
  color,
  status,
  annotations,
  size,
  filteredSize,
  kindLabel,
  className,
  provided,
  dragHandle,
  dragging,
  navId,
  searchable,
  tags = '',
  issue = null,
  placeId,
  placeText,
  children,
}: Props) {
  const filteredOut = useFilteredOut(searchable ? navId : null)
  const fill = colorFill(color)
  const style: CSSProperties = { ...(provided?.draggableProps.style ?? {}) }
  const closed = status === 'CLOSED'
  // The tile stays a link (Enter opens the card); Space still lifts it for keyboard dragging.
  const { role: _role, ...handle } =
    provided?.dragHandleProps ?? dragHandle ?? ({} as Record<string, unknown>)
  const notes = annotationList(annotations)
  const open = useContext(OpenCardContext)
  // At 25 %: colour and first words, the whole title as name and tooltip.
  const tiny = useContext(TinyTilesContext)
  const shownSize = (size ?? 0) > 0 || (filteredSize ?? 0) > 0
  const sizeText = filteredSize != null ? `${filteredSize} of ${size ?? 0}` : `${size}`
  // Size and annotations are shown as short tags; screen readers get them in words, as the
  // tile's description (after the drag library's own instructions, when it is a handle).
  const tagNames = tagNamesOf(tags)
  const details = [
    ...(shownSize ? [`Size ${sizeText}`] : []),
    ...notes.map((a) => ANNOTATION_LABELS[a]),
    ...(tagNames.length > 0 ? [`Tags: ${tagNames.join(', ')}`] : []),
    ...(issue ? [issueLabel(issue)] : []),
  ].join(', ')
  const detailsId = details ? `card-details-${navId}` : undefined
  // Where the card is and what it carries come before the drag library's instructions.
  const describedBy = [placeId, detailsId, handle['aria-describedby'] as string | undefined]
    .filter(Boolean)
    .join(' ')
  const hidden = details ? (
    <span id={detailsId} hidden>
      {details}
    </span>
  ) : null
  const link = {
    href: to,
    onClick: (event: MouseEvent) => {
      if (!opensInPlace(event)) return
      event.preventDefault()
      open(to)
    },
    ref: provided?.innerRef,
    ...provided?.draggableProps,
    ...handle,
    tabIndex: -1,
    'aria-label': `${title} (${kindLabel.toLowerCase()}${closed ? ', closed' : ''})`,
    'aria-describedby': describedBy || undefined,
  }
  const classes = `${className ?? ''} ${closed ? 'closed' : ''} ${dragging ? 'dragging' : ''} ${filteredOut ? 'filtered-out' : ''}`
  if (tiny) {
    // 25 % shows most of a big map at once: one element per tile (its first words as its text,
    // its colour as its left border, its place and details as an attribute) keeps the page as
    // quick as at 100 % (CONTRACT §15, ADR 39).
    // The drag library's instructions too: an aria-describedby would win over aria-description.
    const instructions = handle['aria-describedby'] ? dragWords.instructions : ''
    const description = [placeText, details, instructions].filter(Boolean).join(' ')
    return (
      <a
        {...link}
        aria-describedby={undefined}
        aria-description={description || undefined}
        style={fill ? { ...style, borderLeftColor: fill } : style}
        className={`card-tile tiny ${classes}`}
        title={title}
      >
        {firstWords(title)}
      </a>
    )
  }
  return (
    <a {...link} style={style} className={`card-tile ${classes}`}>
      {fill ? <span className="card-color" style={{ background: fill }} aria-hidden="true" /> : null}
      <span className="card-title">{title}</span>
      <TagLabels labels={tags} />
      {issue ? <IssueNumber issue={issue} /> : null}
      {children}
      {hidden}
      {notes.length > 0 || shownSize ? (
        <span className="card-footer" aria-hidden="true">
          {/* Only when there are any: an empty one in every sized tile was a tenth of a board's elements. */}
          {notes.length > 0 ? (
            <span className="card-annotations">
              {notes.map((a) => (
                <span key={a} title={ANNOTATION_LABELS[a]}>
                  <AnnotationIcon name={a} />
                </span>
              ))}
            </span>
          ) : null}
          {shownSize ? <span className="card-size" title="Size" data-text={sizeText} /> : null}
        </span>
      ) : null}
    </a>
  )
})
