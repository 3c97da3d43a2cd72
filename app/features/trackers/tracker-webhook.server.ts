import { isUuid } from '~/lib/ids'
import { receiveGithubWebhook } from '~/features/github/index.server'
import { connectionOf, findTrackerLink, openTrackerWebhookSecret } from './tracker-link.server'
import { issueRecordsOf } from './tracker-issues.server'
import { applyRemoteIssues, markMissing } from './tracker-pull.server'
import { recordTrackerFailure } from './tracker-failures.server'
import { withTrackerLock } from './tracker-lock.server'
import { providerOf } from './connector/providers.server'
import { TrackerFailure } from './connector/provider'

/**
 * `POST /v1/tracker/webhook/{projectId}` (CONTRACT §14), the one webhook entry: GitLab's Issue
 * Hook with `X-Gitlab-Token`, Jira's admin webhook with `X-Hub-Signature` (both compared in
 * constant time), GitHub's §13 `issues` events. A missing or wrong secret is 401; nothing changes.
 */

export class WebhookRefused extends Error {}

export async function receiveTrackerWebhook(projectId: string | undefined, body: string, headers: Headers) {
  const link = isUuid(projectId) ? findTrackerLink(projectId.toLowerCase()) : undefined
  if (link?.provider === 'github') return receiveGithubWebhook(projectId, body, headers)
  const secret = link ? openTrackerWebhookSecret(link) : null
  if (!link || secret === null) throw new WebhookRefused('The webhook secret is missing or wrong.')
  const provider = providerOf(link.provider)
  if (!provider.verify(headers, body, secret))
    throw new WebhookRefused('The webhook secret is missing or wrong.')
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return {}
  }
  const named = provider.hookIssues(parsed)
  const conn = connectionOf(link)
  if (named.length === 0 || !conn || link.status === 'token_invalid') return {}
  await withTrackerLock(link.projectId, async () => {
    const records = issueRecordsOf(link)
    const byKey = new Map([...records.values()].map((r) => [r.key, r]))
    const linked = named
      .map((n) => (n.id && records.get(n.id)) || (n.key ? byKey.get(n.key) : undefined))
      .filter((r) => r !== undefined)
    if (linked.length === 0) return
    const deleted = named.filter((n) => n.deleted)
    if (deleted.length > 0) {
      markMissing(
        link,
        linked.map((r) => r.featureId),
      )
      return
    }
    try {
      const found = await provider.read(
        conn,
        linked.map((r) => r.issueId),
      )
      applyRemoteIssues(link, found)
      const seen = new Set(found.filter((i) => !i.missing).map((i) => i.id))
      markMissing(
        link,
        linked.filter((r) => !seen.has(r.issueId)).map((r) => r.featureId),
      )
    } catch (error) {
      if (!(error instanceof TrackerFailure)) throw error
      recordTrackerFailure(link, error, { direction: 'pull', action: 'webhook' }, true)
    }
  })
  return {}
}
