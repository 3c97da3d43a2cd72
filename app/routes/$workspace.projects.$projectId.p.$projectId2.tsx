import type { ActionFunctionArgs } from '@remix-run/node'
import { cardDialogRoute } from '~/features/board/ui/card-dialog-route'
import { DomainError } from '~/lib/errors'
import { isUuid } from '~/lib/ids'
import { newProjectLink, setProjectSharing } from '~/features/workspaces/sharing.server'
import { requireWorkspace } from '~/http/auth.server'
import { readForm } from '~/http/public-form.server'

export default cardDialogRoute('project', 'projectId2')

/** The project card's Sharing section (CONTRACT §8): stop, share again, or a new link. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  const projectId = isUuid(params.projectId) ? params.projectId.toLowerCase() : ''
  const intent = (await readForm(request)).get('intent')
  try {
    switch (intent) {
      case 'stopSharing':
        setProjectSharing(ctx, projectId, false)
        return { ok: true as const, message: 'Sharing stopped. The share link no longer works.' }
      case 'shareAgain':
        setProjectSharing(ctx, projectId, true)
        return { ok: true as const, message: 'Shared again. The share link works again.' }
      case 'newLink':
        newProjectLink(ctx, projectId)
        return { ok: true as const, message: 'New link made. The old link no longer works.' }
    }
    return { ok: false as const, message: 'Unknown action.' }
  } catch (error) {
    if (error instanceof DomainError) return { ok: false as const, message: error.message }
    throw error
  }
}

export type ProjectSharingAction = typeof action
