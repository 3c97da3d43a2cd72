import type { Route } from './+types/account.notifications.$key'
import type { MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import {
  notificationSettings,
  readUnsubscribeKey,
  updateNotificationSettings,
} from '~/features/notifications/notifications.server'

export const meta: MetaFunction = () => [{ title: 'Unsubscribe · Storymap' }]

const WHAT = {
  mentions: 'e-mails when you are mentioned',
  watching: 'e-mails about cards you watch',
} as const

/**
 * An e-mail's unsubscribe link (CONTRACT §12): works without a session, as the key is signed for
 * one account and one kind of e-mail. The page has one button; a POST (the button, or a mail
 * program's RFC 8058 one-click `List-Unsubscribe=One-Click`) turns that kind off.
 */
export function loader({ params }: Route.LoaderArgs) {
  const key = readUnsubscribeKey(params.key ?? '')
  if (!key) return { valid: false as const }
  return { valid: true as const, kind: key.kind, on: notificationSettings(key.accountId)[key.kind] }
}

export async function action({ params }: Route.ActionArgs) {
  const key = readUnsubscribeKey(params.key ?? '')
  if (!key) throw new Response('This link is invalid.', { status: 404 })
  updateNotificationSettings(key.accountId, { [key.kind]: false })
  return { done: true }
}

export default function UnsubscribePage() {
  const data = useLoaderData<typeof loader>()
  const done = useActionData<typeof action>()
  if (!data.valid)
    return (
      <div className="card narrow">
        <h1>Something went wrong</h1>
        <p>This link is invalid.</p>
        <Link className="button primary" to="/">
          Home
        </Link>
      </div>
    )
  const off = done || !data.on
  return (
    <div className="card narrow">
      <h1>Unsubscribe</h1>
      {off ? (
        <p role="status">
          You will no longer get {WHAT[data.kind]}. You can turn them on again in your account settings.
        </p>
      ) : (
        <Form method="post">
          <p>Stop {WHAT[data.kind]}?</p>
          <button type="submit" className="button primary">
            Unsubscribe
          </button>
        </Form>
      )}
    </div>
  )
}
