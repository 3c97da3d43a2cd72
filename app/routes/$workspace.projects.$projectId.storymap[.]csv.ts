import type { Route } from './+types/$workspace.projects.$projectId.storymap[.]csv'
import { CSV_FILENAME, projectToCsv } from '~/features/transfer/csv'
import { DomainError } from '~/lib/errors'
import { getProjectBundle } from '~/features/map/project-bundle.server'
import { requireWorkspace } from '~/http/auth.server'

export function csvResponse(csv: string) {
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${CSV_FILENAME}"`,
      'Cache-Control': 'no-store',
    },
  })
}

/** 'Export CSV': the whole map as storymap.csv (SPEC §9). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  try {
    return csvResponse(projectToCsv(getProjectBundle(ctx.workspace.id, params.projectId ?? '')))
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found')
      return new Response('Project not found', { status: 404 })
    throw error
  }
}
