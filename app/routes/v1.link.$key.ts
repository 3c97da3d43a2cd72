import { getPublicBundleBytes } from '~/models/project-bundle.server'
import { jsonBytes, v1Route } from '~/utils/api.server'

/** The public, read-only map behind a share link: no session. */
const route = v1Route({
  GET: ({ params }) => jsonBytes(getPublicBundleBytes(params.key ?? '')),
})
export const loader = route.loader
export const action = route.action
