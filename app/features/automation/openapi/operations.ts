import { z } from 'zod'
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi'
import { errorSchema } from './schemas'

/**
 * One /v1 operation, described once and turned into OpenAPI by `operation`. `access` says who
 * may call it, which fixes its security, its `Workspace` header and its refusals (CONTRACT §3, §10).
 */
export type Access =
  /** No session: sign-up, log-in, public links. */
  | 'public'
  /** The signed-in account; a session only (tokens get 403 `token_not_allowed`). */
  | 'account'
  /** A member of the workspace the `Workspace` header names, by session or token. */
  | 'workspace'
  /** Any member of the project's workspace, by session or token; no `Workspace` header needed. */
  | 'project'

export type OperationSpec = {
  tag: string
  summary: string
  description?: string
  access: Access
  /** A workspace route tokens may not call (403 `token_not_allowed`, CONTRACT §10). */
  sessionOnly?: boolean
  /** A write: `read` tokens get 403 `token_read_only`, VIEWERs and inactive plans 403. */
  write?: boolean
  body?: z.ZodType
  query?: z.ZodObject
  /** The success answer: a schema (JSON), or a non-JSON media type with its description. */
  ok: z.ZodType | { mediaType: string; description: string; schema?: z.ZodType }
  status?: 200 | 201
  /** Another media type the success answer may have, chosen by the request's `Accept` (the draft's NDJSON stream). */
  alsoOk?: { mediaType: string; schema: z.ZodType }
  /** Refusals beyond those `access` and `write` imply, with what they mean here. */
  errors?: Partial<Record<400 | 401 | 403 | 404 | 409 | 413 | 429 | 502 | 503 | 504, string>>
}

const PATH_PARAMETERS: Record<string, z.ZodType> = {
  id: z
    .string()
    .meta({ format: 'uuid', description: 'The entity id (a UUID; the client chooses it on create).' }),
  key: z.string().meta({ description: 'The key from the link or the e-mail.' }),
  email: z.string().meta({ format: 'email', description: 'An e-mail address.' }),
}

const workspaceHeader = z.object({
  Workspace: z
    .string()
    .meta({
      format: 'uuid',
      description: 'The workspace id. Required with a session; a token names its own workspace.',
    })
    .optional(),
})

function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: errorSchema } } }
}

function refusals(spec: OperationSpec): Record<string, string> {
  const out: Record<string, string> = {}
  if (spec.body || spec.query || spec.write)
    out[400] = 'Invalid input: `{field}_invalid`, `invalid_json`, `invalid_body`.'
  if (spec.access !== 'public') out[401] = 'No valid session or token (`unauthorized`, `invalid_token`).'
  if (spec.access === 'account') out[403] = 'Tokens may not call this route (`token_not_allowed`).'
  if (spec.access === 'workspace' || spec.access === 'project') {
    out[403] = spec.write
      ? 'Not a member, level too low, plan inactive, or a `read` token (`token_read_only`).'
      : 'Not a member of the workspace, or the token is for another workspace.'
    out[404] = 'No such entity in this workspace.'
  }
  if (spec.sessionOnly) out[403] = `${out[403]} Tokens may not call this route (\`token_not_allowed\`).`
  if (spec.write) out[409] = 'The id is already used, or the change conflicts.'
  if (spec.body) out[413] = 'The body is over 1 MB.'
  if (spec.access !== 'public') out[429] = 'Over the per-token limit (`too_many_requests`, `Retry-After`).'
  return { ...out, ...spec.errors }
}

/** The parameters a path template names: `/v1/features/{id}/move` → `{id}`. */
export function pathParameters(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
  if (names.length === 0) return undefined
  return z.object(Object.fromEntries(names.map((name) => [name, PATH_PARAMETERS[name] ?? z.string()])))
}

export function operation(path: string, spec: OperationSpec, operationId: string): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {}
  if (spec.ok instanceof z.ZodType) {
    responses[String(spec.status ?? 200)] = {
      description: spec.status === 201 ? 'Created.' : 'Success.',
      content: {
        'application/json': { schema: spec.ok },
        ...(spec.alsoOk ? { [spec.alsoOk.mediaType]: { schema: spec.alsoOk.schema } } : {}),
      },
    }
  } else {
    responses['200'] = {
      description: spec.ok.description,
      content: { [spec.ok.mediaType]: { schema: spec.ok.schema ?? z.string() } },
    }
  }
  for (const [status, description] of Object.entries(refusals(spec)))
    responses[status] = errorResponse(description)

  const security: Record<string, string[]>[] =
    spec.access === 'public'
      ? []
      : spec.access === 'account' || spec.sessionOnly
        ? [{ session: [] }]
        : [{ session: [] }, { bearer: [] }]
  return {
    operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security,
    requestParams: {
      ...(pathParameters(path) ? { path: pathParameters(path) } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(spec.access === 'workspace' ? { header: workspaceHeader } : {}),
    },
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: spec.body } } } }
      : {}),
    responses,
  }
}

/** A path's operations by method. */
export type PathSpecs = Record<
  string,
  Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', OperationSpec>>
>
