import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { features, tags } from '~/lib/db/schema'
import { DomainError } from '~/lib/errors'
import { logger } from '~/lib/logger.server'
import { executeChange, type ChangeActor } from '~/features/map/door.server'
import {
  conflictNote,
  decideFields,
  labelKey,
  pullSummary,
  SYNCED_FIELDS,
  tagsForLabels,
  type SyncedValues,
} from './connector/issue-rules'
import { canonicalMarkdown } from './markdown-adf'
import { jiraLabels, tagsForJiraLabels } from './jira/jira-mapping'
import { PROVIDER_LABEL } from './tracker-api'
import { logTracker, type TrackerLinkRow } from './tracker-link.server'
import {
  featureRecord,
  issueColumns,
  issueOfRemote,
  issueRecordsOf,
  saveIssueRecord,
  setFeatureIssue,
  trackerActor,
  type FeatureRecord,
  type IssueRecord,
} from './tracker-issues.server'
import type { RemoteIssue } from './connector/provider'

/**
 * Tracker → Storymap (CONTRACT §13, §14), the one conflict rule for every provider: an issue the
 * tracker reports (poll, `Sync now`, webhook) becomes the same change on its feature, through the
 * one door as the linking member `via: "GitHub"` / `"GitLab"` / `"Jira"`. Fields only the tracker
 * changed since the last sync are taken; a field both changed goes to the later change.
 */

const isJira = (link: TrackerLinkRow) => link.provider === 'jira'

function mapValues(link: TrackerLinkRow, f: FeatureRecord): SyncedValues {
  return {
    title: f.title,
    body: isJira(link) ? canonicalMarkdown(f.description) : f.description,
    state: f.status === 'CLOSED' ? 'closed' : 'open',
    labels: labelKey(isJira(link) ? jiraLabels(f.tags) : f.tags.map((t) => t.name)),
  }
}

const remoteValues = (issue: RemoteIssue): SyncedValues => ({
  title: issue.title,
  body: issue.description,
  state: issue.state,
  labels: labelKey(issue.labels),
})

/** §13's sentences name GitHub; the connector's name the linked tracker. */
const named = (link: TrackerLinkRow, text: string) =>
  text.replaceAll("GitHub's change", `${PROVIDER_LABEL[link.provider]}'s change`)

function applyIssue(actor: ChangeActor, link: TrackerLinkRow, row: IssueRecord, issue: RemoteIssue): boolean {
  const feature = featureRecord(row.featureId)
  if (!feature || feature.projectId !== link.projectId) return false
  if (Date.parse(issue.updatedAt) < Date.parse(row.issueUpdatedAt)) return false
  const label = PROVIDER_LABEL[link.provider]
  const featureIssue = issueOfRemote(link, issue)
  if (issue.missing) {
    setFeatureIssue(
      actor,
      feature,
      featureIssue,
      `${label} issue ${issue.key} of feature '${feature.title}' is missing`,
    )
    return false
  }
  const remote = remoteValues(issue)
  const map = mapValues(link, feature)
  const synced: SyncedValues = { title: row.title, body: row.body, state: row.state, labels: row.labels }
  const decisions = decideFields({
    synced,
    github: remote,
    map,
    githubAt: issue.updatedAt,
    mapAt: feature.lastModified,
  })
  const taken = SYNCED_FIELDS.filter((f) => decisions[f] === 'pull' || decisions[f] === 'github-later')
  const mapWins = SYNCED_FIELDS.filter((f) => decisions[f] === 'map-later')
  if (taken.length === 0) {
    // An issue seen again unchanged (JQL's minute, GitLab's `updated_after` edge) writes nothing.
    const unchanged =
      row.issueUpdatedAt === issue.updatedAt && SYNCED_FIELDS.every((f) => synced[f] === remote[f])
    if (!unchanged) saveIssueRecord(link, feature.id, issue)
    setFeatureIssue(
      actor,
      feature,
      featureIssue,
      `${label} issue ${issue.key} of feature '${feature.title}' is ${featureIssue.state}`,
    )
    if (mapWins.length > 0)
      executeChange(actor, {
        action: 'edit',
        command: { type: 'tracker.conflict', id: feature.id },
        log: {
          notice: {
            projectId: link.projectId,
            kind: 'feature',
            summary: `Kept feature '${feature.title}' as it is on the map${named(link, conflictNote(decisions))}`,
          },
        },
        write: () => undefined,
      })
    return false
  }
  const now = new Date().toISOString()
  const after = { title: taken.includes('title') ? remote.title : feature.title }
  executeChange(actor, {
    action: 'edit',
    command: { type: 'tracker.pull', id: feature.id, issue: issue.key, fields: taken },
    log: { summary: () => named(link, pullSummary({ title: feature.title }, after, decisions, issue.state)) },
    write: (tx) => {
      const set: Partial<typeof features.$inferInsert> = {
        lastModified: now,
        lastModifiedByName: actor.account.name,
        ...issueColumns(featureIssue),
      }
      if (taken.includes('title')) set.title = remote.title
      if (taken.includes('body')) set.description = remote.body
      if (taken.includes('state')) set.status = issue.state === 'closed' ? 'CLOSED' : 'OPEN'
      if (taken.includes('labels')) {
        const projectTags = tx
          .select({ id: tags.id, name: tags.name })
          .from(tags)
          .where(eq(tags.projectId, feature.projectId))
          .all()
        const { tagIds, missing } = isJira(link)
          ? tagsForJiraLabels(issue.labels, projectTags)
          : tagsForLabels(issue.labels, projectTags)
        for (const name of missing) {
          const id = crypto.randomUUID()
          tx.insert(tags)
            .values({
              id,
              workspaceId: feature.workspaceId,
              projectId: feature.projectId,
              name,
              color: 'BLUE',
              createdAt: now,
            })
            .run()
          tagIds.push(id)
        }
        set.tagIds = JSON.stringify(tagIds)
      }
      tx.update(features).set(set).where(eq(features.id, feature.id)).run()
      saveIssueRecord(link, feature.id, issue)
    },
  })
  logTracker(link.projectId, {
    direction: 'pull',
    featureId: feature.id,
    issue: issue.key,
    action: taken.join(', '),
    status: 'ok',
  })
  return true
}

/** Applies reported issues to their linked features; answers how many features changed. */
export function applyRemoteIssues(link: TrackerLinkRow, issues: readonly RemoteIssue[]): number {
  const actor = trackerActor(link)
  if (!actor) return 0
  const records = issueRecordsOf(link)
  let pulled = 0
  for (const issue of issues) {
    const row = records.get(issue.id)
    if (!row) continue
    try {
      if (applyIssue(actor, link, row, issue)) pulled++
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      logger.info({ projectId: link.projectId, code: err.code }, 'tracker: pull refused')
      logTracker(link.projectId, {
        direction: 'pull',
        featureId: row.featureId,
        issue: issue.key,
        action: 'update',
        status: 'failed',
        error: err.message,
      })
      break
    }
  }
  return pulled
}

/** Linked issues a re-read did not find: their features' `issue.state` becomes `missing`. */
export function markMissing(link: TrackerLinkRow, featureIds: readonly string[]) {
  const actor = trackerActor(link)
  if (!actor) return
  for (const featureId of featureIds) {
    const feature = featureRecord(featureId)
    if (!feature?.issue || feature.issue.state === 'missing') continue
    setFeatureIssue(
      actor,
      feature,
      { ...feature.issue, state: 'missing' },
      `${PROVIDER_LABEL[link.provider]} issue ${feature.issue.key} of feature '${feature.title}' is missing`,
    )
    logTracker(link.projectId, {
      direction: 'pull',
      featureId,
      issue: feature.issue.key,
      action: 'missing',
      status: 'ok',
    })
  }
}
