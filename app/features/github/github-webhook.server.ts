import { verify } from '@octokit/webhooks-methods'
import { refuse } from '~/lib/errors'
import { isUuid } from '~/lib/ids'
import { findLink } from './github-link.server'
import { openWebhookSecret } from './github-secrets.server'
import { applyIssues, linkedIssueNumbers, markIssueMissing, type GithubIssue } from './github-pull.server'
import { mayPoll } from './github-poll.server'
import { withProjectLock } from './sync-lock.server'

/**
 * `POST /v1/github/webhook/{projectId}` (CONTRACT §13): GitHub's `issues` events, signed with the
 * link's webhook secret (`X-Hub-Signature-256`, checked with Octokit's webhook methods). A missing
 * or wrong signature is 401 and changes nothing. The change is the same as a poll would make; a
 * link that may not pull now (token refused, rate limit, plan inactive) leaves it to a later
 * poll; events of another repository than the linked one are ignored.
 */
export async function receiveGithubWebhook(projectId: string | undefined, body: string, headers: Headers) {
  const link = isUuid(projectId) ? findLink(projectId.toLowerCase()) : undefined
  const signature = headers.get('x-hub-signature-256') ?? ''
  // An unknown project answers like a bad signature: the address alone tells nothing. So does a
  // secret sealed under another SESSION_SECRET.
  const secret = link && openWebhookSecret(link.webhookSecretCipher, link.projectId)
  if (!secret || !signature || !body || !(await verify(secret, body, signature))) throw new SignatureRefused()
  const event = headers.get('x-github-event')
  if (event !== 'issues') return {}
  let payload: { action?: string; issue?: GithubIssue; repository?: { full_name?: string } }
  try {
    payload = JSON.parse(body)
  } catch {
    throw refuse.invalid('invalid_json', 'The request body is not valid JSON.')
  }
  const issue = payload.issue
  if (!issue || typeof issue.number !== 'number') return {}
  await withProjectLock(link.projectId, async () => {
    const current = findLink(link.projectId)
    if (!current || !mayPoll(current, Date.now())) return
    // A hook left on a repository the project was linked to before (the secret outlives a relink) changes nothing.
    if (payload.repository?.full_name?.toLowerCase() !== current.repository.toLowerCase()) return
    if (payload.action === 'deleted' || payload.action === 'transferred') {
      const row = linkedIssueNumbers(current).get(issue.number)
      if (row) markIssueMissing(current, row.featureId)
      return
    }
    applyIssues(current, [issue])
  })
  return {}
}

export class SignatureRefused extends Error {
  constructor() {
    super('The signature is missing or wrong.')
  }
}
