import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteError } from '@remix-run/react'
import type { ReactNode } from 'react'
import stylesheet from '~/styles/app.css?url'
import { MessagesProvider } from './components/messages'
import { NotFound } from './components/not-found'
import { takeMessage } from './utils/toast.server'
import { useNonce } from './utils/nonce'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [{ title: 'Storymap' }]

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/** Reads and clears the flash message a page action left in its cookie (app/utils/toast.server.ts). */
export async function loader({ request }: LoaderFunctionArgs) {
  const { message, setCookie } = await takeMessage(request)
  return data({ message }, setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined)
}

export default function App() {
  const { message } = useLoaderData<typeof loader>()
  return (
    <MessagesProvider initial={message}>
      <Outlet />
    </MessagesProvider>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  return (
    <main className="page-center">
      <div className="card narrow">
        <h1>Something went wrong</h1>
        <p>Please try again. If it keeps happening, contact support.</p>
        <a className="button" href="/">
          Home
        </a>
      </div>
    </main>
  )
}
