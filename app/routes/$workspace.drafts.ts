import type { Route } from './+types/$workspace.drafts'
import { createFromDraftSchema } from '~/features/assistant'
import { createProjectFromDraft } from '~/features/assistant/index.server'
import { parseJson, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * POST `/{workspace}/drafts` `{id, title, map}`: `Create` under a drafted map (CONTRACT §16): the
 * project with the map, as one change its member can undo (EDITOR and up, active plan; refused in
 * the /v1 error shape, `import_invalid` for a map the import would refuse).
 */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    const input = await parseJson(request, createFromDraftSchema)
    return { ok: true, project: createProjectFromDraft(ctx, input) }
  },
})
export const action = route.action
