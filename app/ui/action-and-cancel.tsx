import type { Ref } from 'react'

/** A choice's two buttons on one row: its action (primary, or danger for what cannot be taken back) and Cancel. */
export function ActionAndCancel({
  action,
  tone = 'primary',
  disabled,
  onAction,
  onCancel,
  actionRef,
}: {
  action: string
  tone?: 'primary' | 'danger'
  disabled?: boolean
  onAction: () => void
  onCancel: () => void
  actionRef?: Ref<HTMLButtonElement>
}) {
  return (
    <div className="row">
      <button
        ref={actionRef}
        type="button"
        className={`button ${tone} small`}
        disabled={disabled}
        onClick={onAction}
      >
        {action}
      </button>
      <button type="button" className="button small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
}
