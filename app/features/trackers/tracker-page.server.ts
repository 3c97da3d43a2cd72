import { z } from 'zod'
import { refuse } from '~/lib/errors'
import { uuidSchema } from '~/lib/ids'
import { importIssuesSchema } from './github/github-api'
import { can } from '~/features/map/permissions'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { linkTrackerSchema, PROVIDER_LABEL } from './tracker-api'
import { getTracker, getTrackerLog, linkTracker, unlinkTracker } from './tracker-connect.server'
import { createTrackerIssue, sendReleaseToTracker } from './tracker-push.server'
import { importTrackerIssues, syncTracker } from './tracker-sync.server'
import { wakeTrackerWorker } from './tracker-outbox.server'

/**
 * The board's Tracker dialog and buttons (`/{workspace}/projects/{id}/tracker`): what the dialog
 * shows, and the same operations as the /v1 routes (CONTRACT §14), as fetcher actions.
 */
export function trackerDialogData(ctx: WorkspaceContext, projectId: string) {
  return {
    ...getTracker(ctx, projectId),
    items: getTrackerLog(ctx, projectId).items,
    canLink: can(ctx, 'linkTracker'),
    canEdit: can(ctx, 'edit'),
  }
}

const intentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('link'), link: z.unknown() }),
  z.object({ intent: z.literal('unlink') }),
  z.object({ intent: z.literal('sync') }),
  z.object({ intent: z.literal('createIssue'), featureId: uuidSchema }),
  z.object({ intent: z.literal('sendRelease'), milestoneId: uuidSchema }),
  importIssuesSchema.extend({ intent: z.literal('import') }),
])

export async function runTrackerIntent(ctx: WorkspaceContext, projectId: string, body: unknown) {
  const parsed = intentSchema.safeParse(body)
  if (!parsed.success) throw refuse.invalid('invalid_input', parsed.error.issues[0].message)
  const input = parsed.data
  try {
    switch (input.intent) {
      case 'link': {
        const link = linkTrackerSchema.safeParse(input.link)
        if (!link.success) {
          const issue = link.error.issues[0]
          const field = String(issue.path[0] ?? '')
          throw refuse.invalid(
            'validation_failed',
            field ? `${field}: ${issue.message}` : issue.message,
            field,
          )
        }
        const { tracker, webhookSecret } = await linkTracker(ctx, projectId, link.data)
        return {
          ok: true,
          message: `Linked to ${PROVIDER_LABEL[tracker.provider]} ${tracker.project}.`,
          webhookSecret,
        }
      }
      case 'unlink':
        await unlinkTracker(ctx, projectId)
        return { ok: true, message: 'Unlinked.' }
      case 'sync': {
        const { pulled } = await syncTracker(ctx, projectId)
        return {
          ok: true,
          message: pulled === 1 ? 'Synced: 1 feature changed.' : `Synced: ${pulled} features changed.`,
        }
      }
      case 'createIssue': {
        const feature = await createTrackerIssue(ctx, input.featureId)
        return { ok: true, message: `Created issue ${feature.issue?.key ?? ''}.` }
      }
      case 'import': {
        const { intent: _, ...cell } = input
        const { imported } = await importTrackerIssues(ctx, projectId, cell)
        return { ok: true, message: imported === 1 ? 'Imported 1 issue.' : `Imported ${imported} issues.` }
      }
      case 'sendRelease': {
        const { created, failed } = await sendReleaseToTracker(ctx, input.milestoneId)
        const made = created === 1 ? '1 issue' : `${created} issues`
        return {
          ok: true,
          message: failed.length > 0 ? `Created ${made}; ${failed.length} failed.` : `Created ${made}.`,
        }
      }
    }
  } finally {
    wakeTrackerWorker()
  }
}
