import type { Route } from './+types/v1.featurecomments.$id.post'
import { v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

/** Edits a comment: the new text arrives as `description` (SPEC §7). */
const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params }) =>
    runBoardCommand(request, params.id, { type: 'comment.edit' }, { fields: { description: 'post' } }),
})
export const loader = route.loader
export const action = route.action
