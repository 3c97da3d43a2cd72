import type { Route } from './+types/v1.projects.$id.duplicate'
import { z } from 'zod'
import { titleSchema } from '~/features/board/board-commands'
import { uuidSchema } from '~/lib/ids'
import { authorize } from '~/features/map/door.server'
import { duplicateProject } from '~/features/transfer/import.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

const duplicateSchema = z.object({ id: uuidSchema, title: titleSchema.optional() })

/** POST /v1/projects/{id}/duplicate {id, title?}: a full copy as project `id` (CONTRACT §8). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    authorize(ctx, 'edit')
    const fromId = pathId(params.id)
    const copy = await parseJson(request, duplicateSchema, {}, { title_invalid: 'Title is invalid.' })
    return { project: duplicateProject(ctx, fromId, copy) }
  },
})
export const loader = route.loader
export const action = route.action
