import { useEffect, useRef } from 'react'
import type { Feature } from '~/features/map/bundle-types'
import { useBoard } from '~/features/board/ui'
import { useMessages } from '~/ui/messages'
import { PROVIDER_LABEL } from '../tracker-words'
import { useTrackerAction } from './use-tracker'

/**
 * The card dialog's tracker line for GitLab and Jira (CONTRACT §14; GitHub keeps §13's own): the
 * issue with its state and Jira's status name, or `Create issue` when the project is linked.
 */
export function TrackerFeatureIssue({ feature }: { feature: Feature }) {
  const { bundle, readOnly, mode } = useBoard()
  const { run, busy, result } = useTrackerAction(`tracker-issue-${feature.id}`)
  const { push } = useMessages()
  useEffect(() => {
    if (result && !result.ok && result.error) push('fail', result.message ?? 'Something went wrong.')
  }, [result, push])
  const issue = feature.issue
  const asked = useRef(false)
  const issueLink = useRef<HTMLAnchorElement>(null)
  useEffect(() => {
    if (!issue || !asked.current) return
    asked.current = false
    issueLink.current?.focus()
  }, [issue])
  if (issue && issue.provider !== 'github')
    return (
      <p className="github-issue">
        {PROVIDER_LABEL[issue.provider]} issue{' '}
        <a ref={issueLink} href={issue.url} target="_blank" rel="noreferrer">
          {issue.key}
        </a>{' '}
        <span className={`issue-state ${issue.state}`}>{issue.status ?? issue.state}</span>
      </p>
    )
  const tracker = bundle.project.tracker
  if (issue || !tracker || tracker.provider === 'github' || readOnly || mode !== 'edit') return null
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
      {busy ? 'Creating issue…' : 'Create issue'}
    </button>
  )
}

/** The release dialog's `Send to tracker` (GitLab, Jira): an issue for each open feature without one. */
export function TrackerSendRelease({ milestoneId }: { milestoneId: string }) {
  const { bundle, readOnly, mode } = useBoard()
  const { run, busy, result } = useTrackerAction(`tracker-release-${milestoneId}`)
  const tracker = bundle.project.tracker
  if (!tracker || tracker.provider === 'github' || readOnly || mode !== 'edit') return null
  return (
    <div className="send-release">
      <button
        type="button"
        className="button wide"
        disabled={busy}
        onClick={() => run({ intent: 'sendRelease', milestoneId })}
      >
        {busy ? 'Sending to tracker…' : 'Send to tracker'}
      </button>
      {result ? (
        <p className={`small ${result.ok ? '' : 'errors-text'}`} role={result.ok ? 'status' : 'alert'}>
          {result.message ?? 'Something went wrong.'}
        </p>
      ) : null}
    </div>
  )
}
