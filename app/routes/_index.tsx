import { redirect, type LoaderFunctionArgs } from 'react-router'
import { listAccountWorkspaces } from '~/features/workspaces/workspace.server'
import { requireAccount } from '~/http/auth.server'

/** SPEC §2: straight to the workspace when there is exactly one, else the list. */
export async function loader({ request }: LoaderFunctionArgs) {
  const account = await requireAccount(request)
  const rows = listAccountWorkspaces(account.id)
  if (rows.length === 1) throw redirect(`/${rows[0].workspace.name}`)
  throw redirect('/account/workspaces')
}
