import { createRequesterFn, GitbeakerRequestError } from '@gitbeaker/requester-utils'

/**
 * A requester for `@gitbeaker/rest` that makes exactly one request per call. Gitbeaker's own
 * retries a 429 or a 502 up to ten times within a quarter of a second, reading neither
 * `Retry-After` nor `RateLimit-Reset`, and then raises an error without the status or headers;
 * CONTRACT §14 wants no call at all to a rate-limited GitLab before it says, so the connector
 * passes this as `requesterFn` and sees every failure as a `GitbeakerRequestError` whose
 * `cause.response` has the status and headers (a cut connection stays fetch's `TypeError`).
 */

type Options = {
  prefixUrl?: string
  searchParams?: string
  method?: string
  asStream?: boolean
  rateLimiters?: unknown
  agent?: unknown
} & RequestInit

async function oneRequest(endpoint: string, options: Record<string, unknown> = {}) {
  const {
    prefixUrl = '',
    searchParams,
    method,
    asStream,
    rateLimiters: _limits,
    agent: _agent,
    ...init
  } = options as Options
  const url = new URL(endpoint, prefixUrl.endsWith('/') ? prefixUrl : `${prefixUrl}/`)
  url.search = searchParams ?? ''
  const request = new Request(url, { ...init, method })
  const response = await fetch(request)
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim()
  if (!response.ok) {
    const text = await response.text()
    let description = text
    if (type === 'application/json') {
      const body = JSON.parse(text || '{}') as { error?: unknown; message?: unknown }
      const said = body.error ?? body.message ?? ''
      description = typeof said === 'string' ? said : JSON.stringify(said)
    }
    throw new GitbeakerRequestError(description, { cause: { description, request, response } })
  }
  const headers = Object.fromEntries(response.headers.entries())
  if (asStream) return { body: response.body, headers, status: response.status }
  const body =
    response.status === 204
      ? null
      : type === 'application/json'
        ? ((await response.json()) ?? {})
        : await response.text()
  return { body, headers, status: response.status }
}

export const oneRequestRequester = createRequesterFn(
  (_service, options) => Promise.resolve(options),
  oneRequest,
)
