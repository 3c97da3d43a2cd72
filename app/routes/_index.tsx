import type { Route } from './+types/_index'
import { redirect } from 'react-router'
import { listAccountWorkspaces } from '~/features/workspaces/workspace.server'
import { requireAccount } from '~/http/auth.server'

/** SPEC §2: straight to the workspace when there is exactly one, else the list. */
export async function loader({ request }: Route.LoaderArgs) {
  const account = await requireAccount(request)
  const rows = listAccountWorkspaces(account.id)
  if (rows.length === 1) throw redirect(`/${rows[0].workspace.name}`)
  throw redirect('/account/workspaces')
}
