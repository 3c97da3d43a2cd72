import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router'
import type { z } from 'zod'
import { DomainError, refuse, STATUS_OF_KIND } from '~/lib/errors'
import { readBearer, tokenInQuery, tokenRefusal } from '~/features/automation/api-tokens'
import { isUuid } from '~/lib/ids'
import { authenticateToken, type TokenAuth } from '~/features/automation/api-token.server'
import { getSessionAccount, type SessionAccount } from '~/features/accounts/session.server'
import {
  getWorkspaceContextById,
  getWorkspaceContextByName,
  type WorkspaceContext,
} from '~/features/workspaces/workspace.server'
import { logger } from '~/lib/logger.server'

/** The one error shape of /v1: `{"error": code, "message": text}`. */
export function apiError(status: number, code: string, message: string, headers?: HeadersInit): Response {
  return Response.json({ error: code, message }, { status, headers })
}

/**
 * A 200 whose body is JSON already rendered to bytes (the project bundle, shared between
 * requests). Handed over as a one-chunk stream: `new Response(bytes)` would copy the megabytes
 * for every request.
 */
export function jsonBytes(body: Uint8Array<ArrayBuffer>): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(body)
      controller.close()
    },
  })
  return new Response(stream, {
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.byteLength) },
  })
}

/**
 * A 200 whose JSON body is already encoded (the project bundle, compressed once per version):
 * the compression middleware leaves a response with a Content-Encoding alone.
 */
export function encodedJson({
  body,
  encoding,
}: {
  body: Uint8Array<ArrayBuffer>
  encoding: string | null
}): Response {
  const response = jsonBytes(body)
  response.headers.set('Vary', 'Accept-Encoding')
  if (encoding) response.headers.set('Content-Encoding', encoding)
  return response
}

type Args = LoaderFunctionArgs | ActionFunctionArgs
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
/** A method's handler; a route passes its generated `Route.LoaderArgs` (typed params). */
type Handler<A extends Args = Args> = (args: A) => Promise<unknown> | unknown

function toResponse(error: unknown): Response {
  if (error instanceof Response) return error
  if (error instanceof DomainError)
    return apiError(
      STATUS_OF_KIND[error.kind],
      error.code,
      error.message,
      error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : undefined,
    )
  logger.error({ err: error }, 'unhandled error in /v1 route')
  return apiError(500, 'internal', 'Something went wrong.')
}

const tokenOfRequest = new WeakMap<Request, TokenAuth>()

const invalidToken = (message: string) =>
  apiError(401, 'invalid_token', message, { 'WWW-Authenticate': 'Bearer error="invalid_token"' })

/**
 * The API token a /v1 request carries, checked before its route runs (CONTRACT §10): a good
 * token stands for its member on this request, and the cookie is not read; a bad one, one in the
 * URL, or one used where tokens may not go is refused. Requests without one go on unchanged.
 */
function authenticateBearer(request: Request) {
  const url = new URL(request.url)
  if (!url.pathname.startsWith('/v1/')) return
  if (tokenInQuery(url.searchParams))
    throw invalidToken('Send the token in the Authorization header (Bearer); a token in the URL is refused.')
  const bearer = readBearer(request.headers.get('Authorization'))
  if (bearer.kind === 'none') return
  if (bearer.kind === 'malformed') throw invalidToken('The Authorization header must be "Bearer smp_…".')
  const auth = authenticateToken(bearer.secret)
  if (!auth) throw invalidToken('The token is unknown, revoked or expired.')
  const refusal = tokenRefusal(request.method, url.pathname, auth.scope)
  if (refusal) throw refuse.forbidden(refusal.message, refusal.code)
  tokenOfRequest.set(request, auth)
}

/**
 * The token of a request that must carry one (`POST /mcp`, CONTRACT §10): no cookie counts; a
 * missing, malformed, unknown, revoked or expired token is 401 `invalid_token`.
 */
export function requireBearerToken(request: Request): TokenAuth {
  if (tokenInQuery(new URL(request.url).searchParams))
    throw invalidToken('Send the token in the Authorization header (Bearer); a token in the URL is refused.')
  const bearer = readBearer(request.headers.get('Authorization'))
  if (bearer.kind === 'none') throw invalidToken('Send an API token: Authorization: Bearer smp_…')
  if (bearer.kind === 'malformed') throw invalidToken('The Authorization header must be "Bearer smp_…".')
  const auth = authenticateToken(bearer.secret)
  if (!auth) throw invalidToken('The token is unknown, revoked or expired.')
  return auth
}

/** The token a request was authenticated with (after v1Route checked it), if any. */
export const tokenAuthOf = (request: Request): TokenAuth | undefined => tokenOfRequest.get(request)

/**
 * Builds a resource route's loader and action from per-method handlers. A handler returns the
 * JSON body (or a Response) and throws DomainError for refusals; nothing leaks as HTML.
 */
export function v1Route<A extends Args = Args>(handlers: Partial<Record<Method, Handler<A>>>) {
  const handle = async (args: A) => {
    const method = args.request.method === 'HEAD' ? 'GET' : (args.request.method as Method)
    const handler = handlers[method]
    if (!handler) {
      return apiError(405, 'method_not_allowed', `${args.request.method} is not allowed here.`, {
        Allow: Object.keys(handlers).join(', '),
      })
    }
    try {
      authenticateBearer(args.request)
      const result = await handler(args)
      return result instanceof Response ? result : Response.json(result ?? {})
    } catch (error) {
      return toResponse(error)
    }
  }
  return { loader: handle, action: handle }
}

/** Reads a JSON body; an empty or absent body is `{}`. */
export async function readJson(request: Request): Promise<unknown> {
  const body = await request.text()
  if (body.trim() === '') return {}
  try {
    return JSON.parse(body)
  } catch {
    throw refuse.invalid('invalid_json', 'The request body is not valid JSON.')
  }
}

function snake(field: string) {
  return field.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())
}

/**
 * Parses a body with a shared schema. The error code names the first bad field
 * (`title_invalid`, `email_invalid`, …) unless `codes` maps it to another.
 */
export async function parseJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  codes: Record<string, string> = {},
  texts: Record<string, string> = {},
): Promise<z.output<S>> {
  const body = await readJson(request)
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw refuse.invalid('invalid_body', 'The request body must be a JSON object.')
  }
  const result = schema.safeParse(body)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue.path.length > 0 ? String(issue.path[0]) : ''
  const code = codes[field] ?? (field ? `${snake(field)}_invalid` : 'invalid_input')
  throw refuse.invalid(code, texts[code] ?? (field ? `${field}: ${issue.message}` : issue.message))
}

export async function requireApiAccount(request: Request): Promise<SessionAccount> {
  const token = tokenOfRequest.get(request)
  if (token) return token.context.account
  const account = await getSessionAccount(request)
  if (!account) throw refuse.unauthorized()
  return account
}

/** The caller's membership of the workspace named by the `Workspace` header. */
export async function requireApiWorkspace(request: Request): Promise<WorkspaceContext> {
  const workspaceId = request.headers.get('Workspace')
  const token = tokenOfRequest.get(request)
  if (token) {
    // The token names its workspace; a header may repeat it, not change it.
    if (workspaceId && workspaceId.toLowerCase() !== token.context.workspace.id)
      throw refuse.forbidden('This token is for another workspace.', 'token_wrong_workspace')
    return token.context
  }
  const account = await requireApiAccount(request)
  if (!workspaceId) throw refuse.invalid('workspace_required', 'The Workspace header is missing.')
  if (!isUuid(workspaceId))
    throw refuse.invalid('workspace_invalid', 'The Workspace header is not a workspace id.')
  const context = getWorkspaceContextById(account.id, workspaceId.toLowerCase())
  if (!context) throw refuse.forbidden('You are not a member of this workspace.', 'not_a_member')
  return context
}

/** The caller's membership of the workspace a page path names (`/{workspace}/…`), refused in the /v1 error shape. */
export async function requireApiWorkspaceNamed(
  request: Request,
  workspaceName: string | undefined,
): Promise<WorkspaceContext> {
  const account = await requireApiAccount(request)
  const context = workspaceName ? getWorkspaceContextByName(account.id, workspaceName) : null
  if (!context) throw refuse.notFound('No such workspace.')
  return context
}

/** A path id that must be a UUID. */
export function pathId(value: string | undefined, name = 'id'): string {
  if (!isUuid(value)) throw refuse.invalid(`${name}_invalid`, `The ${name} in the path is not a UUID.`)
  return value.toLowerCase()
}
