import type { Route } from './+types/$workspace.projects.$projectId'
import { useEffect } from 'react'
import { data } from 'react-router'
import {
  redirect,
  useLoaderData,
  useParams,
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
  type ShouldRevalidateFunction,
} from 'react-router'
import { useBundleText, useServerBoard } from '~/features/board/ui/board-context'
import { boardOutbox } from '~/features/board/ui/board-outbox'
import { boardReloaded, boardReloadWanted } from '~/features/board/ui/board-reload'
import { ProjectView } from '~/pages/board/project-page'
import { BOARD_ID } from '~/features/board/ui/story-map'
import type { SkipLinkHandle } from '~/ui/skip-link'
import { PageMap } from '~/features/board/ui/page-map'
import { useLiveBoard } from '~/features/board/ui/live/use-live-board'
import { useDraftsLostOnReadOnly } from '~/features/board/ui/unsaved-drafts'
import { alertForFailed, boardAlerts, EDIT_ACCESS_LOST } from '~/features/board/board-alerts'
import type { BoardCommand } from '~/features/board/board-commands'
import { DomainError } from '~/lib/errors'
import { can } from '~/features/map/permissions'
import { historyState } from '~/features/history/history.server'
import { getProjectBundleForPage } from '~/features/map/project-bundle.server'
import { packBundleBytes, withBundleForRender } from '~/features/map/bundle-text'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { projectSharingView } from '~/features/workspaces/sharing.server'
import { workspaceMemberNames } from '~/features/notifications/notifications.server'
import { requireWorkspace } from '~/http/auth.server'
import { getMemberView } from '~/features/board/member-view.server'
import { serverViewStore } from '~/features/board/ui/map-view'
import { getEnv } from '~/lib/env.server'
import { assistantAvailableTo } from '~/features/assistant/index.server'
import { lastShownOf, loadOrKeepShown, rememberShown } from '~/http/offline-loader'
import { loadAfterOwnEdit, noteOwnEdit, ownEditPending } from '~/features/board/ui/live/own-edits'

/** The page's skip link goes to the board (app/ui/skip-link.tsx). */
export const handle: SkipLinkHandle = { skipLink: { target: BOARD_ID, label: 'Skip to board' } }

export const meta = ({ data }: Route.MetaArgs) => [
  { title: data && 'title' in data ? `${data.title} · Storymap` : 'Project not found · Storymap' },
]

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  try {
    const { bytes, text, project } = getProjectBundleForPage(ctx.workspace.id, params.projectId ?? '')
    const env = getEnv()
    const sharing = projectSharingView(ctx, project.id)
    const answer = {
      // The map as JSON text, parsed once in the page (useBundleText), not encoded card by card;
      // a whole page carries it by itself (<PageMap>).
      bundleText: context.wholePage ? null : packBundleBytes(bytes),
      projectId: project.id,
      title: project.title,
      readOnly: !can(ctx, 'edit'),
      canLinkGithub: can(ctx, 'linkTracker'),
      canSaveTemplate: can(ctx, 'manageTemplates'),
      assistant: assistantAvailableTo(ctx, env),
      history: historyState(ctx, project.id),
      me: { memberId: ctx.member.id, name: ctx.account.name },
      members: workspaceMemberNames(ctx.workspace.id),
      baseUrl: env.BASE_URL,
      shareUrl: sharing.enabled && !sharing.blockedBy ? `${env.BASE_URL}/link/${project.externalLink}` : null,
      sharing,
      view: getMemberView(ctx, project.id),
    }
    return withBundleForRender(answer, () => JSON.parse(text) as ProjectBundle, text)
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found')
      throw data('Project not found', { status: 404 })
    throw error
  }
}

/**
 * Every board edit: one JSON command, queued in the page's outbox, which sends the edits in order
 * to the board's command route (the same model as the /v1 API) and holds them while the server
 * cannot be reached. The fetcher stays pending meanwhile, so the board shows the edit; a refusal
 * raises SPEC §8's alert with the server's reason, and the edit goes.
 */
export async function clientAction({ request, params }: ClientActionFunctionArgs) {
  const command = (await request.json()) as BoardCommand
  const outcome = await boardOutbox!.send(
    `/${params.workspace}/projects/${params.projectId}/commands`,
    command,
  )
  if (!outcome.ok) {
    boardAlerts.emit(alertForFailed(command.type), outcome.status < 500 ? outcome.message : undefined)
    return outcome
  }
  if (outcome.redirectTo) return redirect(outcome.redirectTo)
  noteOwnEdit(params.projectId ?? '', command, outcome.body)
  return outcome
}

/**
 * After one's own edit the live stream brings the change, so the map is not fetched again
 * (own-edits.ts). A reload that cannot reach the server keeps the board as it is (the live stream
 * catches up later).
 */
export async function clientLoader({ params, serverLoader, request }: ClientLoaderFunctionArgs) {
  const key = `board:${params.projectId}`
  const fromServer = () => serverLoader<typeof loader>()
  // Signed out under the board: it stays as shown (the server would send the log-in page), with what is typed.
  const shown = lastShownOf(key)
  if (boardOutbox?.getState().signedOut && shown !== undefined)
    return shown as Awaited<ReturnType<typeof fromServer>>
  return loadAfterOwnEdit(params.projectId ?? '', key, request.signal, () => loadOrKeepShown(key, fromServer))
}

/**
 * Opening and closing card dialogs and changing the filter (the query) need no reload of the map;
 * edits, other projects and an explicit revalidation (the live board after a reset) do. So does
 * the first move after a sharing change or one's own edit: closing its dialog at once cancels the
 * reload that follows the change, and the router's own request for another one is the same flag
 * an opened card sets, so it is not read here (board-reload.ts, own-edits.ts).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentParams,
  nextParams,
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate
  if (currentUrl.href === nextUrl.href) return true
  if (boardReloadWanted() || ownEditPending(nextParams.projectId)) return true
  return currentParams.projectId !== nextParams.projectId || currentParams.workspace !== nextParams.workspace
}

export default function ProjectPage() {
  const loaderData = useLoaderData<typeof loader>()
  const { me, members, baseUrl, shareUrl, history } = loaderData
  const loaderBundle = useBundleText(loaderData)
  const shownKey = `board:${loaderBundle.project.id}`
  // In an effect, so only in the browser: on the server every board ever rendered stayed in memory.
  useEffect(() => rememberShown(shownKey, loaderData), [shownKey, loaderData])
  useEffect(boardReloaded, [loaderData])
  const { workspace } = useParams()
  const basePath = `/${workspace}/projects/${loaderBundle.project.id}`
  const { bundle: liveBundle, ...live } = useLiveBoard(
    loaderBundle,
    `/v1/projects/${loaderBundle.project.id}/events`,
    me,
  )
  const { bundle, dispatch } = useServerBoard(liveBundle, basePath, me)
  // The stream is the freshest word on what this member may do (a level change, the plan ending).
  const readOnly = live.access ? !live.access.canEdit : loaderData.readOnly
  useDraftsLostOnReadOnly(readOnly, (lost) =>
    boardAlerts.emit(EDIT_ACCESS_LOST, `You had typed: ${lost.map((text) => `“${text}”`).join(', ')}`),
  )
  return (
    <>
      <ProjectView
        key={bundle.project.id}
        bundle={bundle}
        live={live}
        history={history}
        dispatch={dispatch}
        mode={readOnly ? 'readonly' : 'edit'}
        readOnly={readOnly}
        me={me}
        members={members}
        basePath={basePath}
        baseUrl={baseUrl}
        search=""
        shareUrl={shareUrl}
        csvUrl={`${basePath}/storymap.csv`}
        canLinkGithub={loaderData.canLinkGithub}
        canSaveTemplate={loaderData.canSaveTemplate}
        assistant={loaderData.assistant}
        viewStore={serverViewStore(bundle.project.id, bundle.project.workspaceId, loaderData.view)}
      />
      <PageMap answer={loaderData} />
    </>
  )
}

export { ProjectErrorBoundary as ErrorBoundary } from '~/features/board/ui/project-error'
