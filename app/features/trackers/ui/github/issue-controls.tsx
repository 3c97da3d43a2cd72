import { useEffect, useRef } from 'react'
import type { Feature } from '~/features/map/bundle-types'
import { useBoard } from '~/features/board/ui'
import { useMessages } from '~/ui/messages'
import { askToRelink, TOKEN_REFUSED_TEXT } from '../../github/github-texts'
import { useGithubAction, type GithubResult } from './use-github'

/** Shows an operation's outcome in the page's message banner. */
function useResultMessage(result: GithubResult | undefined) {
  const { push } = useMessages()
  useEffect(() => {
    if (!result) return
    if (result.ok && result.message) push('success', result.message)
    else if (result.error) push('fail', result.message ?? 'Something went wrong.')
  }, [result, push])
}

/** The feature dialog's GitHub line: its issue with its state, or `Create GitHub issue` when the project is linked. */
export function FeatureIssue({ feature }: { feature: Feature }) {
  const { bundle, readOnly, mode } = useBoard()
  const { run, busy, result } = useGithubAction(`github-issue-${feature.id}`)
  useResultMessage(result)
  const issue = feature.github
  // The button is gone once the issue exists: focus goes to the issue's link instead of the page.
  const asked = useRef(false)
  const issueLink = useRef<HTMLAnchorElement>(null)
  useEffect(() => {
    if (!issue || !asked.current) return
    asked.current = false
    issueLink.current?.focus()
  }, [issue])
  if (issue)
    return (
      <p className="github-issue">
        GitHub issue{' '}
        <a ref={issueLink} href={issue.url} target="_blank" rel="noreferrer">
          #{issue.number}
        </a>{' '}
        <span className={`issue-state ${issue.state}`}>{issue.state}</span>
      </p>
    )
  if (!bundle.project.github || readOnly || mode !== 'edit') return null
  return (
    <button
      type="button"
      className="button wide"
      disabled={busy}
      onClick={() => {
        asked.current = true
        run({ intent: 'createIssue', featureId: feature.id })
      }}
    >
      {busy ? 'Creating GitHub issue…' : 'Create GitHub issue'}
    </button>
  )
}

/**
 * The release dialog's `Send to GitHub`: an issue for each open feature of the release without
 * one. How many were made shows beside it until the dialog closes (issue 43).
 */
export function SendReleaseButton({ milestoneId }: { milestoneId: string }) {
  const { bundle, readOnly, mode } = useBoard()
  const { run, busy, result } = useGithubAction(`github-release-${milestoneId}`)
  if (!bundle.project.github || readOnly || mode !== 'edit') return null
  return (
    <div className="send-release">
      <button
        type="button"
        className="button wide"
        disabled={busy}
        onClick={() => run({ intent: 'sendRelease', milestoneId })}
      >
        {busy ? 'Sending to GitHub…' : 'Send to GitHub'}
      </button>
      {result ? (
        <p className={`small ${result.ok ? '' : 'errors-text'}`} role={result.ok ? 'status' : 'alert'}>
          {result.message ?? 'Something went wrong.'}
        </p>
      ) : null}
    </div>
  )
}

/**
 * The board's notice when GitHub refused the link's token, with the way to fix it; a member who
 * may not relink (EDITOR, VIEWER) is told who can (issue 43).
 */
export function GithubStoppedNotice({ canLink, onFix }: { canLink: boolean; onFix: () => void }) {
  const { bundle, me } = useBoard()
  const github = bundle.project.github
  if (github?.status !== 'token_invalid') return null
  return (
    <p className="github-stopped" role="alert">
      {TOKEN_REFUSED_TEXT}{' '}
      {canLink ? (
        <button type="button" className="link-button" onClick={onFix}>
          Fix the GitHub link
        </button>
      ) : (
        askToRelink(github.linkedBy, me)
      )}
    </p>
  )
}
