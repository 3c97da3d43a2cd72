import type { Route } from './+types/v1.features.$id.github'
import { createIssueForFeature } from '~/features/github/github-push.server'
import { publicFeatureById } from '~/features/github/feature-issue.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Create GitHub issue` (CONTRACT §13): the feature with its new `github` (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const id = pathId(params.id)
    await createIssueForFeature(ctx, id)
    return publicFeatureById(ctx.workspace.id, id)
  },
})
export const loader = route.loader
export const action = route.action
