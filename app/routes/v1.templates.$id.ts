import type { Route } from './+types/v1.templates.$id'
import { renameTemplateSchema, templateIdSchema } from '~/features/templates'
import { deleteTemplate, renameTemplate } from '~/features/templates/index.server'
import { refuse } from '~/lib/errors'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

function templateId(param: string | undefined) {
  const parsed = templateIdSchema.safeParse(param)
  if (!parsed.success) throw refuse.notFound('Template not found.', 'template_not_found')
  return parsed.data
}

/** A workspace's template (CONTRACT §16): rename, delete; built-in ones are 409 `template_builtin`. */
const route = v1Route<Route.LoaderArgs>({
  PATCH: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const id = templateId(params.id)
    const { title } = await parseJson(request, renameTemplateSchema)
    return { template: renameTemplate(ctx, id, title) }
  },
  DELETE: async ({ request, params }) => {
    deleteTemplate(await requireApiWorkspace(request), templateId(params.id))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
