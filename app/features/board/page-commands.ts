import { z } from 'zod'
import { uuidSchema } from '~/lib/ids'
import { parseBoardCommand, type BoardCommand } from './board-commands'

/**
 * Everything a page writes, sent through its outbox (app/features/board/ui/board-outbox.ts) to its
 * command route: the board's commands (the pure reducer's), and the writes beside them that the
 * reducer cannot foresee: undo and redo (each with a request id, so a resend after a lost answer
 * is answered, not done twice), restore and purge from the trash, watching a card. Pure.
 */
const pageOnlySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('history.undo'), requestId: uuidSchema }),
  z.object({ type: z.literal('history.redo'), requestId: uuidSchema }),
  z.object({ type: z.literal('trash.restore'), id: uuidSchema }),
  z.object({ type: z.literal('trash.purge'), id: uuidSchema }),
  z.object({
    type: z.literal('feature.watch'),
    featureId: uuidSchema,
    watching: z.boolean({ error: 'watching must be true or false.' }),
  }),
])
export type PageOnlyCommand = z.infer<typeof pageOnlySchema>
export type PageCommand = BoardCommand | PageOnlyCommand

const PAGE_ONLY_TYPES = new Set<string>(pageOnlySchema.options.map((o) => o.shape.type.value))

export const isPageOnlyCommand = (command: { type: string }): command is PageOnlyCommand =>
  PAGE_ONLY_TYPES.has(command.type)

/** A page's command, checked: the board's own schema, or one of the writes beside it. */
export function parsePageCommand(
  input: unknown,
): { ok: true; command: PageCommand } | { ok: false; code: string; field: string; message: string } {
  const type = (input as { type?: unknown } | null)?.type
  if (typeof type !== 'string' || !PAGE_ONLY_TYPES.has(type)) return parseBoardCommand(input)
  const result = pageOnlySchema.safeParse(input)
  if (result.success) return { ok: true, command: result.data }
  const issue = result.error.issues[0]
  const field = issue.path.length > 0 ? String(issue.path[0]) : ''
  return {
    ok: false,
    code: field ? `${field}_invalid` : 'invalid_input',
    field,
    message: field ? `${field}: ${issue.message}` : issue.message,
  }
}
