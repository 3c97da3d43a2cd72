// What the board says about a project's GitHub link. Kept apart from github-api.ts, whose zod
// schemas would otherwise come along into the board's JavaScript (25 KB gzip).

/** What the board shows when the link's token was refused (CONTRACT §13). */
export const TOKEN_REFUSED_TEXT = 'GitHub sync stopped: the token was refused.'

/** How each link status reads in the GitHub dialog. */
export const STATUS_TEXT: Record<string, string> = {
  ok: 'Syncing',
  token_invalid: TOKEN_REFUSED_TEXT,
  repository_missing: 'GitHub does not find the repository.',
  rate_limited: 'Waiting for GitHub’s rate limit; sync resumes by itself.',
  unreachable: 'GitHub cannot be reached; retrying.',
}

export const featuresCount = (n: number) => (n === 1 ? '1 feature' : `${n} features`)
const issuesCount = (n: number) => (n === 1 ? '1 GitHub issue' : `${n} GitHub issues`)

/** What `Send to GitHub` made, in words (issue 43: say how many). */
export function sendReleaseMessage(created: number, failed: number): string {
  if (created === 0 && failed === 0)
    return 'No GitHub issue made: every open feature of this release has one already.'
  const made = created === 0 ? 'No GitHub issue made' : `${issuesCount(created)} made`
  return failed > 0 ? `${made}; ${featuresCount(failed)} could not be sent.` : `${made}.`
}

/** Who can fix a refused link, for a member who cannot (issue 43): the linking member, unless that is oneself. */
export function askToRelink(linkedBy: { memberId: string; name: string }, me: { memberId: string }): string {
  return linkedBy.memberId === me.memberId
    ? 'Ask an owner or an admin to relink.'
    : `Ask ${linkedBy.name} or an admin to relink.`
}

/** The unlink confirmation: what stops, and what happens to the pushes still waiting. */
export function unlinkQuestion(repository: string, pendingFeatures: number): string {
  const waiting =
    pendingFeatures === 0
      ? ''
      : ` Changes to ${featuresCount(pendingFeatures)} are still waiting to be pushed: they are kept, and sent when you link ${repository} again.`
  return `Unlink ${repository}? Sync stops; the features keep their issue numbers.${waiting}`
}
