import type { Octokit } from '@octokit/rest'
import { getDb } from '~/lib/db/db.server'
import { refuse } from '~/lib/errors'
import { authorize } from '~/features/map/door.server'
import { findCard, type FeatureRow, type MilestoneRow } from '~/features/map/entities.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { callOptions, githubCall, githubClient, GithubFailure } from './github-client.server'
import { logSync, markReachable, type LinkRow } from './github-link.server'
import {
  featureSnapshot,
  issueFields,
  mapValues,
  saveIssueLink,
  type FeatureSnapshot,
} from './feature-issue.server'
import { labelColor, splitRepository } from './issue-mapping'
import {
  assertLinkUsable,
  domainRefusal,
  recordFailure,
  refuseForFailure,
  requireLink,
  setFeatureGithub,
  tokenOf,
} from './sync-state.server'

/**
 * Storymap → GitHub, asked for by a member (CONTRACT §13): an issue for a feature (`Create GitHub
 * issue`) or for every open feature of a release without one (`Send to GitHub`). The feature's
 * `github` is set through the one door as the member's change (an event and an Activity line,
 * not an undo step).
 */

/** Makes the labels a feature's tags need that the repository lacks (names compared ignoring case). */
export async function ensureLabels(
  octokit: Octokit,
  repository: string,
  wanted: { name: string; color: string }[],
  known?: Set<string>,
) {
  if (wanted.length === 0) return known
  const { owner, repo } = splitRepository(repository)
  let have = known
  if (!have) {
    const labels = await githubCall(() =>
      octokit.paginate(octokit.rest.issues.listLabelsForRepo, {
        owner,
        repo,
        per_page: 100,
        request: callOptions(),
      }),
    )
    have = new Set(labels.map((l) => l.name.toLowerCase()))
  }
  for (const tag of wanted) {
    if (have.has(tag.name.toLowerCase())) continue
    try {
      await githubCall(() =>
        octokit.rest.issues.createLabel({
          owner,
          repo,
          name: tag.name,
          color: labelColor(tag.color),
          request: callOptions(),
        }),
      )
    } catch (error) {
      // 422: made meanwhile (another push, or a name GitHub folds the same way).
      if (!(error instanceof GithubFailure && error.status === 422)) throw error
    }
    have.add(tag.name.toLowerCase())
  }
  return have
}

/** Creates the issue of one feature on GitHub and answers what to record. */
async function createOnGithub(
  octokit: Octokit,
  link: LinkRow,
  feature: FeatureSnapshot,
  labels: Set<string> | undefined,
) {
  const { owner, repo } = splitRepository(link.repository)
  const fields = issueFields(feature)
  const known = await ensureLabels(octokit, link.repository, feature.tags, labels)
  let { data: issue } = await githubCall(() =>
    octokit.rest.issues.create({
      owner,
      repo,
      title: fields.title,
      body: fields.body,
      labels: fields.labels,
      request: callOptions(),
    }),
  )
  if (fields.state === 'closed')
    issue = (
      await githubCall(() =>
        octokit.rest.issues.update({
          owner,
          repo,
          issue_number: issue.number,
          state: 'closed',
          request: callOptions(),
        }),
      )
    ).data
  return { issue, known }
}

function record(
  ctx: WorkspaceContext,
  link: LinkRow,
  feature: FeatureSnapshot,
  issue: { number: number; html_url: string; state: string; updated_at: string },
) {
  const values = mapValues(feature)
  saveIssueLink({
    featureId: feature.id,
    projectId: feature.projectId,
    repository: link.repository,
    number: issue.number,
    ...values,
    issueUpdatedAt: issue.updated_at,
  })
  const github = {
    number: issue.number,
    url: issue.html_url,
    state: issue.state === 'closed' ? ('closed' as const) : ('open' as const),
  }
  setFeatureGithub(
    ctx,
    feature.projectId,
    feature.id,
    github,
    `Created GitHub issue #${issue.number} for feature '${feature.title}'`,
  )
  logSync(link.projectId, {
    direction: 'push',
    featureId: feature.id,
    issue: issue.number,
    action: 'create',
    status: 'ok',
  })
}

/** `POST /v1/features/{id}/github`: the feature with its new `github`. */
export async function createIssueForFeature(ctx: WorkspaceContext, featureId: string) {
  authorize(ctx, 'edit')
  const row = findCard(getDb(), 'feature', featureId, ctx.workspace.id) as FeatureRow
  const link = requireLink(row.projectId)
  if (row.github !== null) throw refuse.conflict('already_linked', 'This feature has a GitHub issue already.')
  assertLinkUsable(link)
  const feature = featureSnapshot(featureId)!
  const octokit = githubClient(tokenOf(link)!)
  let created
  try {
    created = await createOnGithub(octokit, link, feature, undefined)
  } catch (error) {
    refuseForFailure(link, error, { direction: 'push', featureId, action: 'create' })
  }
  markReachable(link.projectId)
  // The feature may have been linked by a request that finished first.
  if (featureSnapshot(featureId)?.github)
    throw refuse.conflict('already_linked', 'This feature has a GitHub issue already.')
  record(ctx, link, feature, created.issue)
  return featureSnapshot(featureId)!.github
}

/** The OPEN features of a release without an issue, in board order (goal, activity, then rank). */
function unlinkedOpenFeatures(milestoneId: string): string[] {
  return getDb()
    .$client.prepare(
      `select f.id from features f join subworkflows s on s.id = f.subworkflow_id join workflows w on w.id = s.workflow_id
       where f.milestone_id = ? and f.status = 'OPEN' and f.github is null
       order by w.rank, s.rank, f.rank, f.id`,
    )
    .pluck()
    .all(milestoneId) as string[]
}

/**
 * `POST /v1/milestones/{id}/github`: an issue for every OPEN feature of the release without one,
 * in board order. Once GitHub refuses (rate limit, token) the rest are not tried and are listed
 * as failed with the same code.
 */
export async function sendReleaseToGithub(ctx: WorkspaceContext, milestoneId: string) {
  authorize(ctx, 'edit')
  const milestone = findCard(getDb(), 'milestone', milestoneId, ctx.workspace.id) as MilestoneRow
  const link = requireLink(milestone.projectId)
  assertLinkUsable(link)
  const octokit = githubClient(tokenOf(link)!)
  let created = 0
  const failed: { featureId: string; error: string }[] = []
  let stop: string | null = null
  let labels: Set<string> | undefined
  for (const featureId of unlinkedOpenFeatures(milestoneId)) {
    if (stop) {
      failed.push({ featureId, error: stop })
      continue
    }
    const feature = featureSnapshot(featureId)
    if (!feature || feature.github) continue
    try {
      const result = await createOnGithub(octokit, link, feature, labels)
      labels = result.known
      if (featureSnapshot(featureId)?.github) continue
      record(ctx, link, feature, result.issue)
      created++
    } catch (error) {
      if (!(error instanceof GithubFailure)) throw error
      recordFailure(link, error.failure, { direction: 'push', featureId, action: 'create' }, false)
      const code = domainRefusal(error.failure).code
      failed.push({ featureId, error: code })
      if (error.failure.kind !== 'rejected') stop = code
    }
  }
  if (created > 0 && !stop) markReachable(link.projectId)
  return { created, failed }
}
