import type { Route } from './+types/v1.milestones.$id.github'
import { sendReleaseToGithub } from '~/features/trackers/index.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Send to GitHub` (CONTRACT §13): an issue for every open feature of the release without one (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) =>
    sendReleaseToGithub(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
