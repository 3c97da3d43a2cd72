import { getDb } from '~/lib/db/db.server'
import { refuse } from '~/lib/errors'
import { authorize } from '~/features/map/door.server'
import { findCard, publicFeature, type FeatureRow, type MilestoneRow } from '~/features/map/entities.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { PROVIDER_LABEL, type TrackerProviderName } from './tracker-api'
import {
  connectionOf,
  findTrackerLink,
  logTracker,
  markTrackerReachable,
  type TrackerLinkRow,
} from './tracker-link.server'
import { featureRecord, issueOfRemote, saveIssueRecord, setFeatureIssue } from './tracker-issues.server'
import { assertTrackerUsable, recordTrackerFailure, trackerRefusal } from './tracker-failures.server'
import { withTrackerLock } from './tracker-lock.server'
import { providerOf } from './connector/providers.server'
import { SYNCED_FIELDS } from './connector/issue-rules'
import { TrackerFailure, type Connection, type PushedField, type RemoteIssue } from './connector/provider'

/**
 * Storymap → tracker (CONTRACT §13, §14): `Create issue` and `Send to tracker` for whichever
 * tracker is linked, and the worker's push of a linked feature's later changes.
 */

/** The project's link (`only`: §13's routes serve a GitHub link only, and answer any other as none). */
export function requireTrackerLink(projectId: string, only?: TrackerProviderName): TrackerLinkRow {
  const link = findTrackerLink(projectId)
  if (!link || (only && link.provider !== only))
    throw refuse.conflict('tracker_not_linked', 'This project is not linked to a tracker.')
  return link
}

export function requireConnection(link: TrackerLinkRow): Connection {
  assertTrackerUsable(link)
  const conn = connectionOf(link)
  if (!conn)
    throw trackerRefusal(
      new TrackerFailure('token_invalid', 'the token no longer opens; link the project again.'),
    )
  return conn
}

function recordCreated(ctx: WorkspaceContext, link: TrackerLinkRow, featureId: string, issue: RemoteIssue) {
  const feature = featureRecord(featureId)!
  saveIssueRecord(link, featureId, issue)
  setFeatureIssue(
    ctx,
    feature,
    issueOfRemote(link, issue),
    `Created ${PROVIDER_LABEL[link.provider]} issue ${issue.key} for feature '${feature.title}'`,
  )
  logTracker(link.projectId, {
    direction: 'push',
    featureId,
    issue: issue.key,
    action: 'create',
    status: 'ok',
  })
}

/** `POST /v1/features/{id}/issue`: the feature with its new `issue`. */
export async function createTrackerIssue(
  ctx: WorkspaceContext,
  featureId: string,
  only?: TrackerProviderName,
) {
  authorize(ctx, 'edit')
  const row = findCard(getDb(), 'feature', featureId, ctx.workspace.id) as FeatureRow
  const link = requireTrackerLink(row.projectId, only)
  if (row.issue !== null) throw refuse.conflict('already_linked', 'This feature has an issue already.')
  const conn = requireConnection(link)
  await withTrackerLock(link.projectId, async () => {
    const feature = featureRecord(featureId)!
    let issue
    try {
      issue = await providerOf(link.provider).create(conn, feature)
    } catch (error) {
      if (!(error instanceof TrackerFailure)) throw error
      recordTrackerFailure(link, error, { direction: 'push', featureId, action: 'create' }, false)
      throw trackerRefusal(error)
    }
    markTrackerReachable(link.projectId)
    if (featureRecord(featureId)?.issue)
      throw refuse.conflict('already_linked', 'This feature has an issue already.')
    recordCreated(ctx, link, featureId, issue)
  })
  return publicFeature(findCard(getDb(), 'feature', featureId, ctx.workspace.id) as FeatureRow)
}

function unlinkedOpenFeatures(milestoneId: string): string[] {
  return getDb()
    .$client.prepare(
      `select f.id from features f join subworkflows s on s.id = f.subworkflow_id join workflows w on w.id = s.workflow_id
       where f.milestone_id = ? and f.status = 'OPEN' and f.issue is null
       order by w.rank, s.rank, f.rank, f.id`,
    )
    .pluck()
    .all(milestoneId) as string[]
}

/** `POST /v1/milestones/{id}/issues`: an issue for every OPEN feature of the release without one, in board order. */
export async function sendReleaseToTracker(
  ctx: WorkspaceContext,
  milestoneId: string,
  only?: TrackerProviderName,
) {
  authorize(ctx, 'edit')
  const milestone = findCard(getDb(), 'milestone', milestoneId, ctx.workspace.id) as MilestoneRow
  const link = requireTrackerLink(milestone.projectId, only)
  const conn = requireConnection(link)
  const provider = providerOf(link.provider)
  return withTrackerLock(link.projectId, async () => {
    let created = 0
    const failed: { featureId: string; error: string }[] = []
    let stop: string | null = null
    for (const featureId of unlinkedOpenFeatures(milestoneId)) {
      if (stop) {
        failed.push({ featureId, error: stop })
        continue
      }
      const feature = featureRecord(featureId)
      if (!feature || feature.issue) continue
      try {
        recordCreated(ctx, link, featureId, await provider.create(conn, feature))
        created++
      } catch (error) {
        if (!(error instanceof TrackerFailure)) throw error
        recordTrackerFailure(link, error, { direction: 'push', featureId, action: 'create' }, false)
        const code = trackerRefusal(error).code
        failed.push({ featureId, error: code })
        if (!['permission_missing', 'transition_missing', 'rejected'].includes(error.kind)) stop = code
      }
    }
    if (created > 0 && !stop) markTrackerReachable(link.projectId)
    return { created, failed }
  })
}

/** The worker's push of one feature's waiting changes: its issue is brought to the feature as it is now. */
export async function pushFeature(
  link: TrackerLinkRow,
  conn: Connection,
  featureId: string,
  fields: readonly PushedField[],
): Promise<RemoteIssue | null> {
  const feature = featureRecord(featureId)
  const record = getDb()
    .$client.prepare(
      'select issue_id as issueId from tracker_issues where feature_id = ? and provider = ? and lower(project) = lower(?)',
    )
    .get(featureId, link.provider, link.repository) as { issueId: string } | undefined
  if (!feature || !record || !feature.issue || feature.issue.state === 'missing') return null
  const issue = await providerOf(link.provider).update(conn, record.issueId, feature, fields)
  saveIssueRecord(
    link,
    featureId,
    issue,
    SYNCED_FIELDS.filter((f) => fields.includes(f)),
  )
  return issue
}
