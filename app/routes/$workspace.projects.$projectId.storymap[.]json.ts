import type { Route } from './+types/$workspace.projects.$projectId.storymap[.]json'
import { DomainError } from '~/lib/errors'
import { getProjectExport } from '~/features/map/project-bundle.server'
import { requireWorkspace } from '~/http/auth.server'
import { exportResponse } from '~/features/transfer/export-response.server'

/** 'Export JSON' on the board: the download of GET /v1/projects/{id}/export, for a link without headers. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  try {
    return exportResponse(getProjectExport(ctx.workspace.id, params.projectId ?? ''))
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found')
      return new Response('Project not found', { status: 404 })
    throw error
  }
}
