import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useParams, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from '@remix-run/react'
import { useServerBoard } from '~/components/board/board-context'
import { ProjectView } from '~/components/board/project-view'
import { alertForFailed, boardAlerts } from '~/domain/board-alerts'
import { parseBoardCommand, type BoardCommandType } from '~/domain/board-commands'
import { DomainError, STATUS_OF_KIND } from '~/domain/errors'
import { can } from '~/domain/permissions'
import { canShareExternally } from '~/domain/plan'
import { executeBoardCommand } from '~/models/board.server'
import { getProjectBundle } from '~/models/project-bundle.server'
import { requireWorkspace } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && 'bundle' in data ? `${data.bundle.project.title} · Storymap` : 'Project not found · Storymap' },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  try {
    const bundle = getProjectBundle(ctx.workspace.id, params.projectId ?? '')
    const env = getEnv()
    const sharing = canShareExternally(ctx.subscription, ctx.workspace.allowExternalSharing, new Date())
    return {
      bundle,
      readOnly: !can(ctx, 'edit'),
      me: { memberId: ctx.member.id, name: ctx.account.name },
      baseUrl: env.BASE_URL,
      shareUrl: sharing ? `${env.BASE_URL}/link/${bundle.project.externalLink}` : null,
    }
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') throw data('Project not found', { status: 404 })
    throw error
  }
}

/** Every board edit: one JSON command, run by the same model as the /v1 API. */
export async function action({ request, params }: ActionFunctionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  const parsed = parseBoardCommand(await request.json().catch(() => null))
  if (!parsed.ok) return data({ ok: false as const, error: parsed.code, message: parsed.message }, { status: 400 })
  try {
    const entity = executeBoardCommand(ctx, parsed.command)
    const command = parsed.command
    if (command.type === 'card.delete' && command.kind === 'project') throw redirect(`/${ctx.workspace.name}`)
    return { ok: true as const, entity }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return data({ ok: false as const, error: error.code, message: error.message }, { status: STATUS_OF_KIND[error.kind] })
  }
}

/** Runs in the browser around the server action: a refused edit raises SPEC §8's alert. */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const command = (await request.clone().json().catch(() => null)) as { type?: BoardCommandType } | null
  try {
    const result = await serverAction<typeof action>()
    if (result && typeof result === 'object' && 'ok' in result && !result.ok) boardAlerts.emit(alertForFailed(command?.type))
    return result
  } catch (error) {
    if (error instanceof Response && error.status >= 300 && error.status < 400) throw error
    boardAlerts.emit(alertForFailed(command?.type))
    return { ok: false as const, error: 'network', message: 'Something went wrong.' }
  }
}

/** Opening and closing card dialogs needs no reload of the map; edits and other projects do. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentParams, nextParams, formMethod, defaultShouldRevalidate }) => {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate
  return currentParams.projectId !== nextParams.projectId || currentParams.workspace !== nextParams.workspace
}

export default function ProjectPage() {
  const { bundle: loaderBundle, readOnly, me, baseUrl, shareUrl } = useLoaderData<typeof loader>()
  const { workspace } = useParams()
  const basePath = `/${workspace}/projects/${loaderBundle.project.id}`
  const { bundle, dispatch } = useServerBoard(loaderBundle, basePath, me)
  return (
    <ProjectView
      bundle={bundle}
      dispatch={dispatch}
      mode={readOnly ? 'readonly' : 'edit'}
      readOnly={readOnly}
      me={me}
      basePath={basePath}
      baseUrl={baseUrl}
      search=""
      shareUrl={shareUrl}
      csvUrl={`${basePath}/storymap.csv`}
    />
  )
}

export { ProjectErrorBoundary as ErrorBoundary } from '~/components/board/project-error'
