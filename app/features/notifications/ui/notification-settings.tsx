import { Form } from 'react-router'

/** Account settings, section Notifications (CONTRACT §12): a plain form, so it works without JavaScript. */
export function NotificationSettingsCard({ mentions, watching }: { mentions: boolean; watching: boolean }) {
  return (
    <section className="card settings-card" aria-label="Notifications">
      <h2>Notifications</h2>
      <Form method="post" className="stack">
        <label className="switch-row">
          <input type="checkbox" role="switch" name="mentions" defaultChecked={mentions} />
          <span>E-mail me when I&apos;m mentioned</span>
        </label>
        <label className="switch-row">
          <input type="checkbox" role="switch" name="watching" defaultChecked={watching} />
          <span>E-mail me about cards I watch</span>
        </label>
        <div>
          <button type="submit" name="intent" value="notifications" className="button primary">
            Save notifications
          </button>
        </div>
      </Form>
    </section>
  )
}
