import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { destroySession } from '~/models/session.server'

async function logout(request: Request) {
  throw redirect('/', { headers: { 'Set-Cookie': await destroySession(request) } })
}

export const loader = ({ request }: LoaderFunctionArgs) => logout(request)
export const action = ({ request }: ActionFunctionArgs) => logout(request)
