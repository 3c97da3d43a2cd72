import { isUuid } from '~/lib/ids'
import type { TrackerProviderName } from './tracker-words'
import { connectionOf, findTrackerLink, openTrackerWebhookSecret } from './tracker-link.server'
import { issueRecordsOf, mayPull } from './tracker-issues.server'
import { applyRemoteIssues, markMissing } from './tracker-pull.server'
import { recordTrackerFailure } from './tracker-failures.server'
import { withTrackerLock } from './tracker-lock.server'
import { providerOf } from './connector/providers.server'
import { TrackerFailure } from './connector/provider'

/**
 * `POST /v1/tracker/webhook/{projectId}` and `POST /v1/github/webhook/{projectId}` (CONTRACT §13,
 * §14), the one webhook entry: GitHub's `issues` events with `X-Hub-Signature-256` (Octokit's
 * webhook methods), GitLab's Issue Hook with `X-Gitlab-Token`, Jira's admin webhook with
 * `X-Hub-Signature` (both compared in constant time). A missing or wrong secret is 401; nothing
 * changes. An issue the delivery carries whole (GitHub's) is applied as it is (a late delivery of
 * an older state changes nothing); others are read again. A link that may not pull now (token
 * refused, rate limit, plan inactive) leaves it to a later poll; another project's events
 * (a hook left on a former repository) are ignored.
 */

export class WebhookRefused extends Error {}

export async function receiveTrackerWebhook(
  projectId: string | undefined,
  body: string,
  headers: Headers,
  /** §13's address takes GitHub's deliveries only. */
  only?: TrackerProviderName,
) {
  const found = isUuid(projectId) ? findTrackerLink(projectId.toLowerCase()) : undefined
  // An unknown project answers like a bad secret: the address alone tells nothing.
  const link = found && (!only || found.provider === only) ? found : undefined
  const secret = link ? openTrackerWebhookSecret(link) : null
  if (!link || secret === null) throw new WebhookRefused('The webhook secret is missing or wrong.')
  const provider = providerOf(link.provider)
  if (!(await provider.verify(headers, body, secret)))
    throw new WebhookRefused('The webhook secret is missing or wrong.')
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return {}
  }
  const named = provider
    .hookIssues(parsed, headers)
    .filter((n) => !n.project || n.project.toLowerCase() === link.repository.toLowerCase())
  const conn = connectionOf(link)
  if (named.length === 0 || !conn) return {}
  await withTrackerLock(link.projectId, async () => {
    const current = findTrackerLink(link.projectId)
    if (!current || current.provider !== link.provider || !mayPull(current)) return
    const records = issueRecordsOf(current)
    const byKey = new Map([...records.values()].map((r) => [r.key, r]))
    const linked = named
      .map((n) => (n.id && records.get(n.id)) || (n.key ? byKey.get(n.key) : undefined))
      .filter((r) => r !== undefined)
    if (linked.length === 0) return
    const deleted = named.filter((n) => n.deleted)
    if (deleted.length > 0) {
      markMissing(
        current,
        linked.map((r) => r.featureId),
      )
      return
    }
    const carried = named.flatMap((n) => (n.issue ? [n.issue] : []))
    if (carried.length === named.length) {
      applyRemoteIssues(current, carried)
      return
    }
    try {
      const found = await provider.read(
        conn,
        linked.map((r) => r.issueId),
      )
      applyRemoteIssues(current, found)
      const seen = new Set(found.filter((i) => !i.missing).map((i) => i.id))
      markMissing(
        current,
        linked.filter((r) => !seen.has(r.issueId)).map((r) => r.featureId),
      )
    } catch (error) {
      if (!(error instanceof TrackerFailure)) throw error
      recordTrackerFailure(current, error, { direction: 'pull', action: 'webhook' }, true)
    }
  })
  return {}
}
