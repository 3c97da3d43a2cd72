import type { Route } from './+types/$workspace.projects.$projectId.p.$projectId2'
import { cardDialogRoute } from '~/features/board/ui/card-dialog-route'
import { DomainError } from '~/lib/errors'
import { isUuid } from '~/lib/ids'
import { SHARING_DONE, sharingIntentSchema, type SharingReply } from '~/features/workspaces/sharing-intents'
import { newProjectLink, setProjectSharing } from '~/features/workspaces/sharing.server'
import { requireWorkspace } from '~/http/auth.server'
import { readForm } from '~/http/public-form.server'

export default cardDialogRoute('project', 'projectId2')

/** The project card's Sharing section (CONTRACT §8): stop, share again, or a new link. */
export async function action({ request, params }: Route.ActionArgs): Promise<SharingReply> {
  const ctx = await requireWorkspace(request, params.workspace)
  const projectId = isUuid(params.projectId) ? params.projectId.toLowerCase() : ''
  const parsed = sharingIntentSchema.safeParse(Object.fromEntries(await readForm(request)))
  if (!parsed.success) return { ok: false, message: 'Unknown action.' }
  const { intent } = parsed.data
  try {
    if (intent === 'newLink') newProjectLink(ctx, projectId)
    else setProjectSharing(ctx, projectId, intent === 'shareAgain')
    return { ok: true, message: SHARING_DONE[intent] }
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, message: error.message }
    throw error
  }
}
