import type { Route } from './+types/link.$key.storymap[.]csv'
import { projectToCsv } from '~/features/transfer/csv'
import { DomainError } from '~/lib/errors'
import { getPublicBundle } from '~/features/map/project-bundle.server'
import { csvResponse } from './$workspace.projects.$projectId.storymap[.]csv'

export async function loader({ params }: Route.LoaderArgs) {
  try {
    return csvResponse(projectToCsv(getPublicBundle(params.key ?? '')))
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found')
      return new Response('Project not found.', { status: 404 })
    throw error
  }
}
