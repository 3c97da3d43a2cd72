import { issueOfGithub } from './issue-mapping'
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { features, tags } from '~/lib/db/schema'
import { DomainError } from '~/lib/errors'
import { logger } from '~/lib/logger.server'
import { executeChange, type ChangeActor } from '~/features/map/door.server'
import type { FeatureGithub } from '~/features/map/entities.server'
import { logSync, type LinkRow } from './github-link.server'
import {
  featureSnapshot,
  issueLinksOf,
  mapValues,
  saveIssueLink,
  type IssueLinkRow,
} from './feature-issue.server'
import {
  decideFields,
  descriptionOfBody,
  labelKey,
  labelNames,
  pullSummary,
  conflictNote,
  SYNCED_FIELDS,
  tagsForLabels,
  titleOfIssue,
  type SyncedValues,
} from './issue-mapping'
import { linkingActor, noteFeatureGithub } from './sync-state.server'

/**
 * GitHub → Storymap (CONTRACT §13): an issue GitHub reports (a poll, `Sync now`, a webhook)
 * becomes the same change on its linked feature, through the one door as the linking member
 * `via: "GitHub"`: an event, an Activity line, undoable, and webhooks. Fields only GitHub changed
 * since the last sync are taken; a field both sides changed goes to the later change.
 */

export type GithubIssue = {
  number: number
  title: string
  body?: string | null
  state: string
  labels?: (string | { name?: string | null })[]
  updated_at: string
  html_url: string
  pull_request?: unknown
}

const githubValues = (issue: GithubIssue): SyncedValues => ({
  title: titleOfIssue(issue.title),
  body: descriptionOfBody(issue.body),
  state: issue.state === 'closed' ? 'closed' : 'open',
  labels: labelKey(labelNames(issue.labels)),
})

const sameGithub = (a: FeatureGithub | null, b: FeatureGithub) =>
  !!a && a.number === b.number && a.url === b.url && a.state === b.state

/** Applies one issue to its feature; true when the feature changed. */
function applyIssue(actor: ChangeActor, link: LinkRow, row: IssueLinkRow, issue: GithubIssue): boolean {
  const feature = featureSnapshot(row.featureId)
  if (!feature || feature.projectId !== link.projectId) return false
  // An older state of the issue than the one last seen (a webhook delivered late) changes nothing.
  if (Date.parse(issue.updated_at) < Date.parse(row.issueUpdatedAt)) return false
  const github = githubValues(issue)
  const map = mapValues(feature)
  const synced: SyncedValues = { title: row.title, body: row.body, state: row.state, labels: row.labels }
  const decisions = decideFields({
    synced,
    github,
    map,
    githubAt: issue.updated_at,
    mapAt: feature.lastModified,
  })
  const taken = SYNCED_FIELDS.filter((f) => decisions[f] === 'pull' || decisions[f] === 'github-later')
  const mapWins = SYNCED_FIELDS.filter((f) => decisions[f] === 'map-later')
  const issueGithub: FeatureGithub = {
    number: issue.number,
    url: issue.html_url,
    state: github.state as 'open' | 'closed',
  }
  // What both sides agree on from now: a taken field is GitHub's; a field equal on both sides is that value.
  const agreed: SyncedValues = { ...synced }
  for (const field of SYNCED_FIELDS)
    if (taken.includes(field) || github[field] === map[field]) agreed[field] = github[field]
  const saveAgreement = () => {
    const next = { ...row, ...agreed, issueUpdatedAt: issue.updated_at }
    if (SYNCED_FIELDS.some((f) => next[f] !== row[f]) || next.issueUpdatedAt !== row.issueUpdatedAt)
      saveIssueLink(next)
  }

  if (taken.length === 0) {
    saveAgreement()
    if (!sameGithub(feature.github, issueGithub))
      noteFeatureGithub(
        link,
        feature.id,
        issueGithub,
        `GitHub issue #${issue.number} of feature '${feature.title}' is ${issueGithub.state}`,
      )
    if (mapWins.length > 0) keepMapVersion(actor, link, feature.id, feature.title, decisions)
    return false
  }
  const now = new Date().toISOString()
  const labels = labelNames(issue.labels)
  const after = { title: taken.includes('title') ? github.title : feature.title }
  executeChange(actor, {
    action: 'edit',
    command: { type: 'github.pull', id: feature.id, issue: issue.number, fields: taken },
    log: {
      summary: () =>
        pullSummary({ title: feature.title }, after, decisions, issueGithub.state as 'open' | 'closed'),
    },
    write: (tx) => {
      const set: Partial<typeof features.$inferInsert> = {
        lastModified: now,
        lastModifiedByName: actor.account.name,
        github: JSON.stringify(issueGithub),
        issue: issueOfGithub(issueGithub),
      }
      if (taken.includes('title')) set.title = github.title
      if (taken.includes('body')) set.description = github.body
      if (taken.includes('state')) set.status = github.state === 'closed' ? 'CLOSED' : 'OPEN'
      if (taken.includes('labels')) {
        const projectTags = tx
          .select({ id: tags.id, name: tags.name })
          .from(tags)
          .where(eq(tags.projectId, feature.projectId))
          .all()
        const { tagIds, missing } = tagsForLabels(labels, projectTags)
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
      saveAgreement()
    },
  })
  logSync(link.projectId, {
    direction: 'pull',
    featureId: feature.id,
    issue: issue.number,
    action: taken.join(', '),
    status: 'ok',
  })
  return true
}

/** Both sides changed a field and Storymap's change was later: the map keeps it (the outbox sends it), and Activity says so. */
function keepMapVersion(
  actor: ChangeActor,
  link: LinkRow,
  featureId: string,
  title: string,
  decisions: Parameters<typeof conflictNote>[0],
) {
  executeChange(actor, {
    action: 'edit',
    command: { type: 'github.conflict', id: featureId },
    log: {
      notice: {
        projectId: link.projectId,
        kind: 'feature',
        summary: `Kept feature '${title}' as it is on the map${conflictNote(decisions)}`,
      },
    },
    write: () => undefined,
  })
}

/**
 * Applies issues GitHub reported to their linked features (pull requests and issues linked to no
 * feature are left alone). Returns how many features changed. Stops quietly when the linking
 * member may not edit now (left, demoted, plan inactive): the pull waits.
 */
export function applyIssues(link: LinkRow, issues: readonly GithubIssue[]): number {
  const actor = linkingActor(link)
  if (!actor) return 0
  const links = issueLinksOf(link.projectId, link.repository)
  let pulled = 0
  for (const issue of issues) {
    if (issue.pull_request) continue
    const row = links.get(issue.number)
    if (!row) continue
    try {
      if (applyIssue(actor, link, row, issue)) pulled++
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      logger.info({ projectId: link.projectId, code: err.code }, 'github: pull refused')
      logSync(link.projectId, {
        direction: 'pull',
        featureId: row.featureId,
        issue: issue.number,
        action: 'update',
        status: 'failed',
        error: err.message,
      })
      break
    }
  }
  return pulled
}

/** An issue deleted or moved away: its feature's `github.state` becomes `missing`; the feature is unchanged. */
export function markIssueMissing(link: LinkRow, featureId: string) {
  const feature = featureSnapshot(featureId)
  if (!feature?.github || feature.github.state === 'missing') return
  noteFeatureGithub(
    link,
    featureId,
    { ...feature.github, state: 'missing' },
    `GitHub issue #${feature.github.number} of feature '${feature.title}' is missing`,
  )
  logSync(link.projectId, {
    direction: 'pull',
    featureId,
    issue: feature.github.number,
    action: 'missing',
    status: 'ok',
  })
}

/** The issues of this link's repository that have a feature of the project, by number. */
export function linkedIssueNumbers(link: LinkRow) {
  return issueLinksOf(link.projectId, link.repository)
}
