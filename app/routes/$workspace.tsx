import type { Route } from './+types/$workspace'
import {
  Outlet,
  useLoaderData,
  useLocation,
  useNavigation,
  type ShouldRevalidateFunction,
} from 'react-router'
import { AppHeader } from '~/ui/app-header'
import { can } from '~/features/map/permissions'
import { trialBanner } from '~/features/map/plan'
import { requireWorkspace } from '~/http/auth.server'
import { getEnv } from '~/lib/env.server'
import { isBoardWrite, isOverlayMove } from '~/http/revalidation'

export async function loader({ request, params }: Route.LoaderArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  const now = new Date()
  return {
    workspace: { id: ctx.workspace.id, name: ctx.workspace.name },
    account: { id: ctx.account.id, name: ctx.account.name, email: ctx.account.email },
    member: { id: ctx.member.id, level: ctx.level },
    mode: getEnv().APP_MODE,
    planActive: ctx.planActive,
    canEdit: can(ctx, 'edit'),
    canManageBilling: can(ctx, 'manageBilling'),
    trialBanner: trialBanner(ctx.subscription, now),
  }
}

export type WorkspaceLoader = typeof loader

/**
 * A change of the query alone (the board's search and filters, typed key by key), a card dialog
 * opening or closing and board edits reload nothing here.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  formAction,
  formEncType,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => {
  if (isBoardWrite({ formAction, formEncType })) return false
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false
  if (isOverlayMove(currentUrl, nextUrl)) return false
  return defaultShouldRevalidate
}

export default function WorkspaceLayout() {
  const data = useLoaderData<typeof loader>()
  const location = useLocation()
  const navigation = useNavigation()
  const target =
    navigation.state === 'loading'
      ? navigation.location.pathname.match(/^\/[^/]+\/projects\/[^/]+/)?.[0]
      : undefined
  const loadingProject = target !== undefined && !location.pathname.startsWith(target)
  return (
    <div className="app-shell">
      <AppHeader workspaceName={data.workspace.name} email={data.account.email} />
      {!data.planActive ? (
        <div className="banner fail" role="status">
          The plan of this workspace is inactive, so the workspace is view only.{' '}
          {data.canManageBilling && data.mode === 'hosted' ? (
            <a href={`/${data.workspace.name}/subscription`}>Choose a plan</a>
          ) : (
            'Please contact an owner.'
          )}
        </div>
      ) : data.trialBanner ? (
        <div className="banner info" role="status">
          {data.trialBanner}{' '}
          {data.canManageBilling ? <a href={`/${data.workspace.name}/subscription`}>Choose a plan</a> : null}
        </div>
      ) : null}
      {loadingProject ? (
        <p className="loading" role="status">
          Loading data...
        </p>
      ) : (
        <Outlet />
      )}
    </div>
  )
}

export { RouteError as ErrorBoundary } from '~/ui/route-error'
