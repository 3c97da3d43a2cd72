import type { Route } from './+types/v1.templates'
import { saveTemplateSchema } from '~/features/templates'
import { listTemplates, saveTemplate } from '~/features/templates/index.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

/** The built-in templates and the workspace's own (CONTRACT §16): list, and save a project as one. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => ({ templates: listTemplates(await requireApiWorkspace(request)) }),
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    const input = await parseJson(request, saveTemplateSchema)
    return { template: saveTemplate(ctx, input) }
  },
})
export const loader = route.loader
export const action = route.action
