import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { features, tags } from '~/lib/db/schema'
import { getEnv } from '~/lib/env.server'
import { authorize, executeChange } from '~/features/map/door.server'
import {
  assertSameProject,
  findCard,
  findProject,
  type MilestoneRow,
  type SubWorkflowRow,
} from '~/features/map/entities.server'
import { createFeature } from '~/features/board/index.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { tagsForLabels } from './connector/issue-rules'
import { tagsForJiraLabels } from './jira/jira-mapping'
import { PROVIDER_LABEL, type TrackerProviderName } from './tracker-api'
import {
  findTrackerLink,
  logTracker,
  markTrackerReachable,
  noteQuietPoll,
  setTrackerCursor,
  type TrackerLinkRow,
} from './tracker-link.server'
import { issueColumns, issueOfRemote, issueRecordsOf, saveIssueRecord } from './tracker-issues.server'
import { applyRemoteIssues, markMissing } from './tracker-pull.server'
import { recordTrackerFailure, trackerRefusal } from './tracker-failures.server'
import { requireConnection, requireTrackerLink } from './tracker-push.server'
import { withTrackerLock } from './tracker-lock.server'
import { providerOf } from './connector/providers.server'
import { TrackerFailure, type Connection } from './connector/provider'

/**
 * Tracker → Storymap (CONTRACT §13, §14): polls (GitHub's conditional `since`, GitLab's
 * `updated_after`, Jira's JQL `updated >=`), `Sync now` (which also re-reads every linked issue)
 * and `Import issues`, for whichever tracker is linked.
 */

/** One poll: every issue updated since the cursor, applied; answers how many features changed. */
export async function pollOnce(link: TrackerLinkRow, conn: Connection): Promise<number> {
  const started = new Date()
  const issues = await providerOf(link.provider).changedSince(conn, link.since)
  markTrackerReachable(link.projectId)
  const records = issueRecordsOf(link)
  const relevant = issues.filter((i) => records.has(i.id))
  const pulled = relevant.length > 0 ? applyRemoteIssues(link, relevant) : 0
  const latest = issues.reduce<string | null>(
    (max, i) => (max === null || i.updatedAt > max ? i.updatedAt : max),
    null,
  )
  // Nothing newer than the cursor (JQL's minute brings the last ones again): a quiet poll, no write.
  if (latest === null || (link.since !== null && latest <= link.since)) {
    noteQuietPoll(link.projectId, started.toISOString())
    return pulled
  }
  setTrackerCursor(link.projectId, latest, started.toISOString())
  return pulled
}

/** `POST /v1/projects/{id}/tracker/sync` (EDITOR and up): polls at once and re-reads every linked issue. */
export async function syncTracker(ctx: WorkspaceContext, projectId: string, only?: TrackerProviderName) {
  authorize(ctx, 'edit')
  findProject(getDb(), projectId, ctx.workspace.id)
  const link = requireTrackerLink(projectId, only)
  const conn = requireConnection(link)
  return withTrackerLock(projectId, async () => {
    let pulled = 0
    try {
      pulled += await pollOnce(link, conn)
      const records = issueRecordsOf(link)
      if (records.size > 0) {
        const found = await providerOf(link.provider).read(conn, [...records.keys()])
        pulled += applyRemoteIssues(findTrackerLink(projectId)!, found)
        const seen = new Set(found.filter((i) => !i.missing).map((i) => i.id))
        markMissing(
          link,
          [...records.values()].filter((r) => !seen.has(r.issueId)).map((r) => r.featureId),
        )
      }
    } catch (error) {
      if (!(error instanceof TrackerFailure)) throw error
      recordTrackerFailure(link, error, { direction: 'pull', action: 'sync' }, false)
      throw trackerRefusal(error)
    }
    const lastSyncAt = new Date().toISOString()
    setTrackerCursor(projectId, null, lastSyncAt)
    return { pulled, lastSyncAt }
  })
}

export type TrackerImportInput = {
  milestoneId: string
  subWorkflowId: string
  labels?: string[]
  state?: 'open' | 'all'
}

/** `POST /v1/projects/{id}/tracker/import` (EDITOR and up): one linked feature per matching issue, one change. */
export async function importTrackerIssues(
  ctx: WorkspaceContext,
  projectId: string,
  input: TrackerImportInput,
  only?: TrackerProviderName,
) {
  authorize(ctx, 'edit')
  const project = findProject(getDb(), projectId, ctx.workspace.id)
  const milestone = findCard(getDb(), 'milestone', input.milestoneId, ctx.workspace.id) as MilestoneRow
  const activity = findCard(getDb(), 'subworkflow', input.subWorkflowId, ctx.workspace.id) as SubWorkflowRow
  assertSameProject(projectId, milestone.projectId, 'release')
  assertSameProject(projectId, activity.projectId, 'activity')
  const link = requireTrackerLink(projectId, only)
  const conn = requireConnection(link)
  return withTrackerLock(projectId, async () => {
    let issues
    try {
      issues = await providerOf(link.provider).list(conn, {
        labels: input.labels,
        state: input.state ?? 'open',
      })
    } catch (error) {
      if (!(error instanceof TrackerFailure)) throw error
      recordTrackerFailure(link, error, { direction: 'pull', action: 'import' }, false)
      throw trackerRefusal(error)
    }
    markTrackerReachable(projectId)
    const linked = liveIssueRecords(link)
    const fresh = issues.filter((i) => !linked.has(i.id) && !i.missing)
    const now = new Date().toISOString()
    const author = { workspaceId: ctx.workspace.id, memberId: ctx.member.id, name: ctx.account.name, now }
    const label = PROVIDER_LABEL[link.provider]
    executeChange(ctx, {
      action: 'edit',
      command: {
        type: 'tracker.import',
        projectId,
        milestoneId: input.milestoneId,
        subWorkflowId: input.subWorkflowId,
        count: fresh.length,
      },
      log: {
        summary: () =>
          `Imported ${fresh.length === 1 ? `1 ${label} issue` : `${fresh.length} ${label} issues`} into release '${milestone.title}' › activity '${activity.title}' of project '${project.title}'`,
      },
      write: (tx) => {
        const projectTags = tx
          .select({ id: tags.id, name: tags.name })
          .from(tags)
          .where(eq(tags.projectId, projectId))
          .all()
        for (const issue of fresh) {
          const id = crypto.randomUUID()
          createFeature(tx, author, {
            id,
            milestoneId: input.milestoneId,
            subWorkflowId: input.subWorkflowId,
            title: issue.title,
          })
          const { tagIds, missing } =
            link.provider === 'jira'
              ? tagsForJiraLabels(issue.labels, projectTags)
              : tagsForLabels(issue.labels, projectTags)
          for (const name of missing) {
            const tagId = crypto.randomUUID()
            tx.insert(tags)
              .values({
                id: tagId,
                workspaceId: ctx.workspace.id,
                projectId,
                name,
                color: 'BLUE',
                createdAt: now,
              })
              .run()
            projectTags.push({ id: tagId, name })
            tagIds.push(tagId)
          }
          tx.update(features)
            .set({
              description: issue.description,
              status: issue.state === 'closed' ? 'CLOSED' : 'OPEN',
              tagIds: JSON.stringify(tagIds),
              ...issueColumns(issueOfRemote(link, issue)),
            })
            .where(eq(features.id, id))
            .run()
          forgetIssueRecord(link, issue.id)
          saveIssueRecord(link, id, issue)
        }
      },
    })
    logTracker(projectId, { direction: 'pull', action: `import (${fresh.length})`, status: 'ok' })
    return { imported: fresh.length }
  })
}

/** The issue records of features that still exist: an import undone (or its features deleted) frees its issues. */
function liveIssueRecords(link: TrackerLinkRow) {
  const records = issueRecordsOf(link)
  const live = new Set(
    getDb()
      .$client.prepare('select id from features where project_id = ?')
      .pluck()
      .all(link.projectId) as string[],
  )
  for (const [issueId, record] of records) if (!live.has(record.featureId)) records.delete(issueId)
  return records
}

function forgetIssueRecord(link: TrackerLinkRow, issueId: string) {
  getDb()
    .$client.prepare(
      'delete from tracker_issues where project_id = ? and provider = ? and lower(project) = lower(?) and issue_id = ?',
    )
    .run(link.projectId, link.provider, link.repository, issueId)
}

/** How often a link is polled: GITHUB_POLL_SECONDS for GitHub (CONTRACT §13), TRACKER_POLL_SECONDS for the others (§14). */
export const pollEveryMs = (provider: TrackerProviderName) =>
  (provider === 'github' ? getEnv().GITHUB_POLL_SECONDS : getEnv().TRACKER_POLL_SECONDS) * 1000
