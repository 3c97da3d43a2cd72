import { createProjectFromFile } from '~/features/transfer/index.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'

/**
 * `Create` under a draft (CONTRACT §16): a new project holding the drafted map, read like an import
 * (all or nothing, new ids), written as one change that Undo takes back to an empty board.
 */
export function createProjectFromDraft(
  ctx: WorkspaceContext,
  input: { id: string; title: string; map: unknown },
  now = new Date(),
) {
  return createProjectFromFile(
    ctx,
    { id: input.id, title: input.title },
    input.map,
    { type: 'project.draft', id: input.id, title: input.title },
    now,
  )
}
