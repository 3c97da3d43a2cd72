import type { Route } from './+types/v1.link.$key.export'
import { getPublicExport } from '~/features/map/project-bundle.server'
import { v1Route } from '~/http/api.server'
import { exportResponse } from '~/features/transfer/export-response.server'

/** GET /v1/link/{key}/export: the shared project as a JSON file, while sharing is on; no session. */
const route = v1Route<Route.LoaderArgs>({
  GET: ({ params }) => exportResponse(getPublicExport(params.key ?? '')),
})
export const loader = route.loader
export const action = route.action
