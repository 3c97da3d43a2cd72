import type { Route } from './+types/$workspace.projects.$projectId.github'
import { githubDialogData, runGithubIntent } from '~/features/trackers/index.server'
import { pathId, readJson, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * `/{workspace}/projects/{id}/github`: the board's GitHub dialog (CONTRACT §13). GET: the link,
 * the sync log and what the member may do; POST `{intent, …}`: link, unlink, sync, import, create
 * an issue, send a release. Refusals in the /v1 error shape.
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) =>
    githubDialogData(
      await requireApiWorkspaceNamed(request, params.workspace),
      pathId(params.projectId, 'projectId'),
    ),
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    return runGithubIntent(ctx, pathId(params.projectId, 'projectId'), await readJson(request))
  },
})
export const loader = route.loader
export const action = route.action
