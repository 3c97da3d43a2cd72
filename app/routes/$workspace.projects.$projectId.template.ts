import type { Route } from './+types/$workspace.projects.$projectId.template'
import { renameTemplateSchema } from '~/features/templates'
import { saveTemplate } from '~/features/templates/index.server'
import { parseJson, pathId, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * POST `/{workspace}/projects/{id}/template` `{title}`: the board menu's `Save as template`
 * (CONTRACT §16), OWNERs and ADMINs on an active plan (refused otherwise, in the /v1 error shape).
 */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    const projectId = pathId(params.projectId, 'projectId')
    const { title } = await parseJson(request, renameTemplateSchema)
    return { ok: true, template: saveTemplate(ctx, { projectId, title }) }
  },
})
export const action = route.action
