import { redirect } from 'react-router'
import { getSessionAccount, type SessionAccount } from '~/features/accounts/session.server'
import { getWorkspaceContextByName, type WorkspaceContext } from '~/features/workspaces/workspace.server'

/** Pages: the signed-in account, or a redirect to the log-in page. */
export async function requireAccount(request: Request): Promise<SessionAccount> {
  const account = await getSessionAccount(request)
  if (!account) {
    const url = new URL(request.url)
    const back = url.pathname + url.search
    throw redirect(back === '/' ? '/account/login' : `/account/login?redirectTo=${encodeURIComponent(back)}`)
  }
  return account
}

/** Pages under /{workspaceName}: the caller's membership, or a redirect to / when unknown (SPEC §2). */
export async function requireWorkspace(
  request: Request,
  workspaceName: string | undefined,
): Promise<WorkspaceContext> {
  const account = await requireAccount(request)
  const context = workspaceName ? getWorkspaceContextByName(account.id, workspaceName) : null
  if (!context) throw redirect('/')
  return context
}

/** Only same-site relative paths are followed after log-in. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\'))
    return fallback
  return to
}
