import { z } from 'zod'
import { refuse } from '~/lib/errors'
import { can } from '~/features/map/permissions'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { getEnv } from '~/lib/env.server'
import { uuidSchema } from '~/lib/ids'
import { pendingPushFeatures } from '../tracker-connect.server'
import { wakeTrackerWorker } from '../tracker-outbox.server'
import { importIssuesSchema, linkRepositorySchema } from './github-api'
import {
  createIssueForFeature,
  getRepositoryLink,
  getSyncLog,
  importIssues,
  linkRepository,
  sendReleaseToGithub,
  syncNow,
  unlinkRepository,
} from './github-answers.server'
import { repositoryWebUrl } from './github-mapping'
import { featuresCount, sendReleaseMessage } from './github-texts'

/**
 * The board's GitHub dialog and buttons (`/{workspace}/projects/{id}/github`, CONTRACT §13): what
 * the dialog shows, and the same operations as §13's /v1 routes (the connector's, through the
 * GitHub answers), as fetcher actions.
 */
export function githubDialogData(ctx: WorkspaceContext, projectId: string) {
  const { github } = getRepositoryLink(ctx, projectId)
  return {
    github,
    repositoryUrl: github ? repositoryWebUrl(getEnv().GITHUB_API_URL, github.repository) : null,
    ...getSyncLog(ctx, projectId),
    canLink: can(ctx, 'linkTracker'),
    canEdit: can(ctx, 'edit'),
    /** Features whose changes wait to be pushed: the unlink confirmation says they are kept. */
    pendingPushes: pendingPushFeatures(projectId),
  }
}

export const githubIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('link'), ...linkRepositorySchema.shape }),
  z.object({ intent: z.literal('unlink') }),
  z.object({ intent: z.literal('sync') }),
  z.object({ intent: z.literal('import'), ...importIssuesSchema.shape }),
  z.object({ intent: z.literal('createIssue'), featureId: uuidSchema }),
  z.object({ intent: z.literal('sendRelease'), milestoneId: uuidSchema }),
])

export async function runGithubIntent(ctx: WorkspaceContext, projectId: string, body: unknown) {
  const parsed = githubIntentSchema.safeParse(body)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const field = String(issue.path[0] ?? '')
    throw refuse.invalid(
      field === 'repository'
        ? 'github_repository_invalid'
        : field === 'token'
          ? 'github_token_invalid'
          : 'invalid_input',
      issue.message,
      field,
    )
  }
  const input = parsed.data
  try {
    switch (input.intent) {
      case 'link': {
        const { github, webhookSecret, droppedPushes } = await linkRepository(ctx, projectId, input)
        const dropped =
          droppedPushes > 0
            ? ` Changes to ${featuresCount(droppedPushes)} waiting for another repository were dropped.`
            : ''
        return { ok: true, message: `Linked to ${github.repository}.${dropped}`, webhookSecret }
      }
      case 'unlink':
        await unlinkRepository(ctx, projectId)
        return { ok: true, message: 'Unlinked.' }
      case 'sync': {
        const { pulled } = await syncNow(ctx, projectId)
        return {
          ok: true,
          message: pulled === 1 ? 'Synced: 1 feature changed.' : `Synced: ${pulled} features changed.`,
        }
      }
      case 'import': {
        const { imported } = await importIssues(ctx, projectId, input)
        return { ok: true, message: imported === 1 ? 'Imported 1 issue.' : `Imported ${imported} issues.` }
      }
      case 'createIssue': {
        const { github } = await createIssueForFeature(ctx, input.featureId)
        return { ok: true, message: `Created GitHub issue #${github?.number}.` }
      }
      case 'sendRelease': {
        const { created, failed } = await sendReleaseToGithub(ctx, input.milestoneId)
        return { ok: true, message: sendReleaseMessage(created, failed.length) }
      }
    }
  } finally {
    wakeTrackerWorker()
  }
}
