import type { Route } from './+types/v1.projects.$id'
import { projectFromTemplateSchema } from '~/features/templates'
import { createProjectFromTemplate } from '~/features/templates/index.server'
import { getProjectBundleBody } from '~/features/map/project-bundle.server'
import { encodedJson, parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

/** Whether a create asks for a template (CONTRACT §16): `templateId` beside `title`. */
async function namesTemplate(request: Request) {
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null)
  return body !== null && typeof body === 'object' && 'templateId' in body
}

const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    return encodedJson(
      await getProjectBundleBody(ctx.workspace.id, pathId(params.id), request.headers.get('Accept-Encoding')),
    )
  },
  POST: async ({ request, params }) => {
    if (!(await namesTemplate(request)))
      return runBoardCommand(request, params.id, { type: 'project.create' })
    const ctx = await requireApiWorkspace(request)
    const id = pathId(params.id)
    const input = await parseJson(request, projectFromTemplateSchema)
    return createProjectFromTemplate(ctx, { id, ...input })
  },
  DELETE: ({ request, params }) =>
    runBoardCommand(request, params.id, { type: 'card.delete', kind: 'project' }, { body: false }),
})
export const loader = route.loader
export const action = route.action
