import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from 'react-router'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from 'react-router'
import { useEffect, type ReactNode } from 'react'
import stylesheet from '~/styles/app.css?url'
import printStylesheet from '~/styles/print.css?url'
import { MessagesProvider } from '~/ui/messages'
import { SkipLink } from '~/ui/skip-link'
import { isBoardWrite, isOverlayMove } from '~/http/revalidation'
import { takeMessage } from '~/http/toast.server'
import { HOLD_EARLY_CLICKS, replayHeldClick } from '~/ui/early-click'
import { useNonce } from '~/http/nonce'
import { pageTheme } from '~/features/accounts/theme.server'
import { useTheme } from '~/features/accounts/ui/theme-switcher'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'stylesheet', href: printStylesheet, media: 'print' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export const meta: MetaFunction = () => [{ title: 'Storymap' }]

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce()
  const theme = useTheme(useRouteLoaderData<typeof loader>('root')?.theme)
  // The outermost part: its effect runs once the whole page has hydrated (ADR 24).
  useEffect(replayHeldClick, [])
  return (
    // The theme is in the server-rendered page: no flash of the wrong one (ADR 20).
    <html lang="en" data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: HOLD_EARLY_CLICKS }} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/** Reads and clears the flash message a page action left in its cookie (app/http/toast.server.ts). */
export async function loader({ request }: LoaderFunctionArgs) {
  const [{ message, setCookie }, { theme, setCookie: themeCookie }] = await Promise.all([
    takeMessage(request),
    pageTheme(request),
  ])
  const headers = new Headers()
  for (const cookie of [setCookie, themeCookie]) if (cookie) headers.append('Set-Cookie', cookie)
  return data({ message, theme }, { headers })
}

/** Flash messages follow actions and redirects; plain moves inside a page (card dialogs, demo mode) skip the reload. */
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
  if (currentUrl.pathname === nextUrl.pathname || isOverlayMove(currentUrl, nextUrl)) return false
  return defaultShouldRevalidate
}

export default function App() {
  const { message } = useLoaderData<typeof loader>()
  return (
    <MessagesProvider initial={message}>
      <SkipLink />
      <Outlet />
    </MessagesProvider>
  )
}

export { RouteError as ErrorBoundary } from './ui/route-error'
