import type { Route } from './+types/account.logout'
import { redirect } from 'react-router'
import { destroySession } from '~/features/accounts/session.server'

async function logout(request: Request) {
  throw redirect('/', { headers: { 'Set-Cookie': await destroySession(request) } })
}

/** Opening the page logs out, unless another site sent the browser here (a forged log-out link). */
export const loader = ({ request }: Route.LoaderArgs) => {
  if (request.headers.get('Sec-Fetch-Site') === 'cross-site') throw redirect('/')
  return logout(request)
}
export const action = ({ request }: Route.ActionArgs) => logout(request)
