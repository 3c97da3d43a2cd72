import { useEffect } from 'react'
import type { Feature } from '~/features/map/bundle-types'
import { useBoard } from '~/features/board/ui'
import { useMessages } from '~/ui/messages'
import { askToRelink, TOKEN_REFUSED_TEXT } from '../../github/github-texts'
import { FeatureIssueView, SendReleaseView } from '../tracker-parts'
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
  const linked = !!bundle.project.github && !readOnly && mode === 'edit'
  return (
    <FeatureIssueView
      issue={
        issue
          ? {
              label: 'GitHub',
              key: `#${issue.number}`,
              url: issue.url,
              state: issue.state,
              shown: issue.state,
            }
          : null
      }
      create={linked ? { label: 'Create GitHub issue', busyLabel: 'Creating GitHub issue…' } : null}
      busy={busy}
      onCreate={() => run({ intent: 'createIssue', featureId: feature.id })}
    />
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
    <SendReleaseView
      label="Send to GitHub"
      busyLabel="Sending to GitHub…"
      busy={busy}
      result={result}
      onSend={() => run({ intent: 'sendRelease', milestoneId })}
    />
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
