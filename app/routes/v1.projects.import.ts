import type { Route } from './+types/v1.projects.import'
import { titleSchema } from '~/features/board/board-commands'
import { refuse } from '~/lib/errors'
import { importFormatOfContentType, readImport } from '~/features/transfer/import'
import { authorize } from '~/features/map/door.server'
import { importProject } from '~/features/transfer/import.server'
import { requireApiWorkspace, v1Route } from '~/http/api.server'

/**
 * POST /v1/projects/import?title=…: a new project from a JSON export (application/json) or a
 * storymap.csv (text/csv), all or nothing (CONTRACT §8). The only route whose body may reach
 * 10 MB (server/guards.ts).
 */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    authorize(ctx, 'edit')
    const invalid = (message: string) => refuse.invalid('import_invalid', message)
    const titleParam = new URL(request.url).searchParams.get('title') ?? ''
    let title: string | null = null
    if (titleParam.trim() !== '') {
      const parsed = titleSchema.safeParse(titleParam)
      if (!parsed.success) throw invalid(`title: ${parsed.error.issues[0].message}`)
      title = parsed.data
    }
    const format = importFormatOfContentType(request.headers.get('Content-Type'))
    if (!format) {
      throw invalid('send a Storymap export as application/json or a storymap.csv as text/csv')
    }
    const result = readImport(await request.text(), format)
    if (!result.ok) throw invalid(result.message)
    return { project: importProject(ctx, result.map, title) }
  },
})
export const loader = route.loader
export const action = route.action
