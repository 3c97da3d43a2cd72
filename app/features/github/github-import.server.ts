import { issueOfGithub } from './issue-mapping'
import crypto from 'node:crypto'
import { eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { features, tags } from '~/lib/db/schema'
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
import { callOptions, githubCall, githubClient } from './github-client.server'
import { logSync, markReachable } from './github-link.server'
import { forgetIssueNumber, liveIssueLinksOf, saveIssueLink } from './feature-issue.server'
import {
  descriptionOfBody,
  labelKey,
  labelNames,
  splitRepository,
  tagsForLabels,
  titleOfIssue,
} from './issue-mapping'
import type { GithubIssue } from './github-pull.server'
import { assertLinkUsable, refuseForFailure, requireLink, tokenOf } from './sync-state.server'
import { withProjectLock } from './sync-lock.server'

/**
 * `Import issues` (CONTRACT §13): one linked feature in a cell for each matching issue of the
 * repository not yet linked to a feature of the project (pull requests are not issues), in issue
 * number order, as one change of the member's: one event, one Activity line, one undo step.
 */
export type ImportInput = {
  milestoneId: string
  subWorkflowId: string
  labels?: string[]
  state?: 'open' | 'all'
}

async function matchingIssues(token: string, repository: string, input: ImportInput): Promise<GithubIssue[]> {
  const octokit = githubClient(token)
  const { owner, repo } = splitRepository(repository)
  const issues = await githubCall(() =>
    octokit.paginate(octokit.rest.issues.listForRepo, {
      owner,
      repo,
      state: input.state ?? 'open',
      ...(input.labels && input.labels.length > 0 ? { labels: input.labels.join(',') } : {}),
      per_page: 100,
      request: callOptions(),
    }),
  )
  return (issues as GithubIssue[]).filter((i) => !i.pull_request).sort((a, b) => a.number - b.number)
}

export async function importIssues(ctx: WorkspaceContext, projectId: string, input: ImportInput) {
  authorize(ctx, 'edit')
  const project = findProject(getDb(), projectId, ctx.workspace.id)
  const milestone = findCard(getDb(), 'milestone', input.milestoneId, ctx.workspace.id) as MilestoneRow
  const activity = findCard(getDb(), 'subworkflow', input.subWorkflowId, ctx.workspace.id) as SubWorkflowRow
  assertSameProject(projectId, milestone.projectId, 'release')
  assertSameProject(projectId, activity.projectId, 'activity')
  return withProjectLock(projectId, async () => {
    const link = requireLink(projectId)
    assertLinkUsable(link)
    let issues
    try {
      issues = await matchingIssues(tokenOf(link)!, link.repository, input)
    } catch (error) {
      refuseForFailure(link, error, { direction: 'pull', action: 'import' })
    }
    markReachable(projectId)
    const linked = liveIssueLinksOf(projectId, link.repository)
    const fresh = issues.filter((i) => !linked.has(i.number))
    const now = new Date().toISOString()
    const author = { workspaceId: ctx.workspace.id, memberId: ctx.member.id, name: ctx.account.name, now }
    executeChange(ctx, {
      action: 'edit',
      command: {
        type: 'github.import',
        projectId,
        milestoneId: input.milestoneId,
        subWorkflowId: input.subWorkflowId,
        count: fresh.length,
      },
      log: {
        summary: () =>
          `Imported ${fresh.length === 1 ? '1 GitHub issue' : `${fresh.length} GitHub issues`} into release '${milestone.title}' › activity '${activity.title}' of project '${project.title}'`,
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
            title: titleOfIssue(issue.title),
          })
          const labels = labelNames(issue.labels)
          const { tagIds, missing } = tagsForLabels(labels, projectTags)
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
          const state = issue.state === 'closed' ? 'closed' : 'open'
          const description = descriptionOfBody(issue.body)
          tx.update(features)
            .set({
              description,
              status: state === 'closed' ? 'CLOSED' : 'OPEN',
              tagIds: JSON.stringify(tagIds),
              github: JSON.stringify({ number: issue.number, url: issue.html_url, state }),
              issue: issueOfGithub({ number: issue.number, url: issue.html_url, state }),
            })
            .where(eq(features.id, id))
            .run()
          forgetIssueNumber(projectId, link.repository, issue.number)
          saveIssueLink({
            featureId: id,
            projectId,
            repository: link.repository,
            number: issue.number,
            title: titleOfIssue(issue.title),
            body: description,
            labels: labelKey(labels),
            state,
            issueUpdatedAt: issue.updated_at,
          })
        }
      },
    })
    logSync(projectId, { direction: 'pull', action: `import (${fresh.length})`, status: 'ok' })
    return { imported: fresh.length }
  })
}
