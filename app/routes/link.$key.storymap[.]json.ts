import type { Route } from './+types/link.$key.storymap[.]json'
import { DomainError } from '~/lib/errors'
import { getPublicExport } from '~/features/map/project-bundle.server'
import { exportResponse } from '~/features/transfer/export-response.server'

/** 'Export JSON' on the share link: the file of GET /v1/link/{key}/export. */
export async function loader({ params }: Route.LoaderArgs) {
  try {
    return exportResponse(getPublicExport(params.key ?? ''))
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found')
      return new Response('Project not found.', { status: 404 })
    throw error
  }
}
