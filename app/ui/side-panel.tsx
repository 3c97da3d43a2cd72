import { useEffect, useRef, type ReactNode } from 'react'

/**
 * A panel at the right of the board (Activity, Trash): takes focus when it opens, gives it back
 * when it closes, and Escape closes it unless a dialog is open above it.
 */
export function SidePanel({
  title,
  heading = title,
  onClose,
  children,
}: {
  /** The panel's name (and its close button's). */
  title: string
  /** The visible heading, when it differs from the name (e.g. `New persona` in Personas). */
  heading?: string
  onClose: () => void
  children: ReactNode
}) {
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    ref.current?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !document.querySelector('[role="dialog"]')) onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      if (previous && document.contains(previous)) previous.focus()
    }
  }, [onClose])
  return (
    <aside className="persona-panel side-panel" ref={ref} tabIndex={-1} aria-label={title}>
      <div className="row spread panel-head">
        <h2>{heading}</h2>
        <button
          type="button"
          className="icon-button"
          aria-label={`Close ${title.toLowerCase()}`}
          onClick={onClose}
        >
          <span aria-hidden="true">✕</span>
        </button>
      </div>
      {children}
    </aside>
  )
}
