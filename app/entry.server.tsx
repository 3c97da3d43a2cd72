import { createReadableStreamFromReadable } from '@react-router/node'
import {
  isRouteErrorResponse,
  ServerRouter,
  type ActionFunctionArgs,
  type AppLoadContext,
  type EntryContext,
  type LoaderFunctionArgs,
} from 'react-router'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { redactPath } from '~/lib/log-redaction'
import { createCoalescingStream } from '~/http/coalescing-stream.server'
import { logger } from '~/lib/logger.server'
import { modulePreloadHeader } from '~/http/module-preloads'
import { NonceProvider } from '~/http/nonce'
import { routePatterns } from '~/http/route-pattern.server'

const ABORT_DELAY = 5_000
export const streamTimeout = ABORT_DELAY

/** The matched route's pattern for the request-duration metric of /metrics (only with METRICS_TOKEN set). */
export const instrumentations = [routePatterns]

/** Errors of loaders, actions and rendering go to the JSON log (with the request id), never to the page. */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return
  if (isRouteErrorResponse(error) && error.status < 500) return // a refusal (405, 404), not a fault
  logger.error(
    { err: error, method: request.method, path: redactPath(new URL(request.url).pathname) },
    'error in a page',
  )
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? ''
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || routerContext.isSpaMode
  return new Promise((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true
          const body = createCoalescingStream()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          if (!routerContext.isSpaMode) responseHeaders.append('Link', modulePreloadHeader(routerContext))
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
          body.on('close', () => clearTimeout(abortTimer))
          pipe(body)
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) logger.error({ err: error }, 'error while streaming a page')
        },
      },
    )
    // Cleared once the page is sent: a pending timer keeps the whole render alive for 5 s. React
    // calls the callbacks above from its own later task, never before this line has run.
    const abortTimer = setTimeout(abort, ABORT_DELAY)
  })
}
