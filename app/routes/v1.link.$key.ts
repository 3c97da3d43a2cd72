import type { Route } from './+types/v1.link.$key'
import { getPublicBundleBody } from '~/features/map/project-bundle.server'
import { encodedJson, v1Route } from '~/http/api.server'

/** The public, read-only map behind a share link: no session. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) =>
    encodedJson(await getPublicBundleBody(params.key ?? '', request.headers.get('Accept-Encoding'))),
})
export const loader = route.loader
export const action = route.action
