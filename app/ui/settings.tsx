import { useNavigation } from 'react-router'
import type { ReactNode } from 'react'

/** A settings page's card: a titled section (account and workspace settings). */
export function SettingsCard({
  title,
  children,
  className,
}: {
  title: string
  children: ReactNode
  className?: string
}) {
  return (
    <section className={`card settings-card ${className ?? ''}`} aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

/** A settings form's submit button, posting its `intent`; disabled while a form is being sent. */
export function IntentButton({
  intent,
  children,
  className = 'button',
}: {
  intent: string
  children: ReactNode
  className?: string
}) {
  const busy = useNavigation().state === 'submitting'
  return (
    <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
      {children}
    </button>
  )
}
