import { useEffect, useId, useRef, type ReactNode } from 'react'
import { inertOutside } from './inert-outside'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), textarea:not([disabled]), select:not([disabled]), summary, [tabindex]:not([tabindex="-1"])'

/**
 * The controls Tab can reach inside `root`, in order: not display:none, and not inside a closed
 * <details> (whose content is in the DOM but cannot take focus), except that details' summary.
 */
function tabbable(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => {
    const closed = el.closest('details:not([open])')
    if (closed && !(el.tagName === 'SUMMARY' && el.parentElement === closed)) return false
    return el.getClientRects().length > 0
  })
}

/** About the longest double-click interval of desktop systems. */
const DOUBLE_CLICK_MS = 500

/**
 * A dialog closed by a click (`Create`, `Cancel`, the backdrop) is gone before the second click
 * of a double click lands: that click would hit whatever was behind the dialog (open a card).
 * For a moment after such a close, the rest of a double click (click count 2 and up) is dropped.
 */
function dropRestOfDoubleClick() {
  const until = Date.now() + DOUBLE_CLICK_MS
  const swallow = (event: MouseEvent) => {
    if (Date.now() > until) return stop()
    if (event.detail < 2) return
    event.preventDefault()
    event.stopPropagation()
  }
  const stop = () => {
    for (const type of ['mousedown', 'mouseup', 'click', 'dblclick'] as const)
      window.removeEventListener(type, swallow, true)
  }
  for (const type of ['mousedown', 'mouseup', 'click', 'dblclick'] as const)
    window.addEventListener(type, swallow, true)
  setTimeout(stop, DOUBLE_CLICK_MS)
}

type ModalProps = {
  title: ReactNode
  onClose: () => void
  children: ReactNode
  className?: string
  /** Rendered outside the heading, e.g. a colour strip. */
  before?: ReactNode
}

/**
 * A modal dialog: focus moves in and is trapped, the page behind it is inert, Escape closes it,
 * and focus returns to whatever had it before. Server-rendered too, so a pasted permalink opens it.
 */
export function Modal({ title, onClose, children, className, before }: ModalProps) {
  const ref = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const closeRef = useRef(onClose)
  closeRef.current = onClose
  // Whatever had focus when the dialog opened, read at first render: by the time effects run, an
  // autoFocus field inside the dialog has already taken focus.
  const opener = useRef<HTMLElement | null>(null)
  if (opener.current === null && typeof document !== 'undefined')
    opener.current = document.activeElement as HTMLElement | null
  // When the pointer last went down on the dialog or its backdrop.
  const lastPress = useRef(0)

  useEffect(() => {
    const previous = opener.current
    const node = ref.current
    // The page behind the dialog: out of reach of Tab and of a screen reader's reading cursor.
    const restore = node?.parentElement ? inertOutside(node.parentElement) : () => {}
    if (node && !node.contains(document.activeElement)) (tabbable(node)[0] ?? node).focus()
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        closeRef.current()
      } else if (event.key === 'Tab' && node) {
        const items = tabbable(node)
        if (items.length === 0) return
        const [head, tail] = [items[0], items[items.length - 1]]
        if (!node.contains(document.activeElement)) {
          event.preventDefault()
          ;(event.shiftKey ? tail : head).focus()
        } else if (event.shiftKey && document.activeElement === head) {
          event.preventDefault()
          tail.focus()
        } else if (!event.shiftKey && document.activeElement === tail) {
          event.preventDefault()
          head.focus()
        }
      }
    }
    document.addEventListener('keydown', onKey)
    const backdrop = node?.parentElement
    const onPress = () => {
      lastPress.current = Date.now()
    }
    backdrop?.addEventListener('mousedown', onPress, true)
    return () => {
      backdrop?.removeEventListener('mousedown', onPress, true)
      if (Date.now() - lastPress.current < DOUBLE_CLICK_MS) dropRestOfDoubleClick()
      document.removeEventListener('keydown', onKey)
      restore()
      if (previous && document.contains(previous)) previous.focus()
    }
  }, [])

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`modal ${className ?? ''}`}
      >
        {before}
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  )
}
