import { useEffect } from 'react'
import type { Feature } from '~/features/map/bundle-types'
import { useBoard } from '~/features/board/ui'
import { useMessages } from '~/ui/messages'
import { PROVIDER_LABEL } from '../tracker-words'
import { FeatureIssueView, SendReleaseView } from './tracker-parts'
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
  const tracker = bundle.project.tracker
  // GitHub's issue and button are §13's own (FeatureIssue).
  if (issue?.provider === 'github' || (!issue && tracker?.provider === 'github')) return null
  const linked = !!tracker && !readOnly && mode === 'edit'
  return (
    <FeatureIssueView
      issue={
        issue
          ? {
              label: PROVIDER_LABEL[issue.provider],
              key: issue.key,
              url: issue.url,
              state: issue.state,
              shown: issue.status ?? issue.state,
            }
          : null
      }
      create={linked ? { label: 'Create issue', busyLabel: 'Creating issue…' } : null}
      busy={busy}
      onCreate={() => run({ intent: 'createIssue', featureId: feature.id })}
    />
  )
}

/** The release dialog's `Send to tracker` (GitLab, Jira): an issue for each open feature without one. */
export function TrackerSendRelease({ milestoneId }: { milestoneId: string }) {
  const { bundle, readOnly, mode } = useBoard()
  const { run, busy, result } = useTrackerAction(`tracker-release-${milestoneId}`)
  const tracker = bundle.project.tracker
  if (!tracker || tracker.provider === 'github' || readOnly || mode !== 'edit') return null
  return (
    <SendReleaseView
      label="Send to tracker"
      busyLabel="Sending to tracker…"
      busy={busy}
      result={result}
      onSend={() => run({ intent: 'sendRelease', milestoneId })}
    />
  )
}
