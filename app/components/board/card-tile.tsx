import { useNavigate } from '@remix-run/react'
import type { DraggableProvided } from '@hello-pangea/dnd'
import {
  createContext,
  memo,
  useCallback,
  useContext,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
} from 'react'
import { ANNOTATION_LABELS, annotationList } from '~/domain/board-constants'
import { colorFill } from '~/domain/colors'
import { AnnotationIcon } from './annotation-icon'

type Props = {
  to: string
  title: string
  color: string
  status: string
  annotations: string
  /** Shown bottom-right: a feature's size, an activity's or goal's sum. */
  size?: number | null
  kindLabel: string
  className?: string
  provided?: DraggableProvided
  dragging?: boolean
  children?: React.ReactNode
}

/**
 * Opens a card's dialog route in the app. A router `<Link>` in every tile would re-render all
 * the thousands of tiles on each router update (its route context changes); this context never
 * changes, so tiles render only when their own card does.
 */
const OpenCardContext = createContext<(to: string) => void>(() => {})

export function OpenCardProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate()
  const open = useCallback((to: string) => navigate(to, { preventScrollReset: true }), [navigate])
  return <OpenCardContext.Provider value={open}>{children}</OpenCardContext.Provider>
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

/** One card on the board: a link to its dialog, and the drag handle when dragging is allowed. */
export const CardTile = memo(function CardTile({
  to,
  title,
  color,
  status,
  annotations,
  size,
  kindLabel,
  className,
  provided,
  dragging,
  children,
}: Props) {
  const fill = colorFill(color)
  const style: CSSProperties = { ...(provided?.draggableProps.style ?? {}) }
  const closed = status === 'CLOSED'
  // The tile stays a link (Enter opens the card); Space still lifts it for keyboard dragging.
  const { role: _role, ...handle } = provided?.dragHandleProps ?? ({} as Record<string, unknown>)
  const notes = annotationList(annotations)
  const open = useContext(OpenCardContext)
  return (
    <a
      href={to}
      onClick={(event) => {
        if (!opensInPlace(event)) return
        event.preventDefault()
        open(to)
      }}
      ref={provided?.innerRef}
      {...provided?.draggableProps}
      {...handle}
      style={style}
      className={`card-tile ${className ?? ''} ${closed ? 'closed' : ''} ${dragging ? 'dragging' : ''}`}
      aria-label={`${kindLabel}: ${title}${closed ? ' (closed)' : ''}`}
    >
      {fill ? <span className="card-color" style={{ background: fill }} aria-hidden="true" /> : null}
      <span className="card-title">{title}</span>
      {children}
      {notes.length > 0 || (size ?? 0) > 0 ? (
        <span className="card-footer">
          <span className="card-annotations">
            {notes.map((a) => (
              <span key={a} title={ANNOTATION_LABELS[a]}>
                <AnnotationIcon name={a} />
              </span>
            ))}
          </span>
          {(size ?? 0) > 0 ? (
            <span className="card-size" title="Size">
              {size}
            </span>
          ) : null}
        </span>
      ) : null}
    </a>
  )
})
