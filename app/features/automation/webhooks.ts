import { z } from 'zod'
import { uuidSchema } from '~/lib/ids'

/**
 * Webhooks (CONTRACT §10): what an endpoint may be, which event a change is, the payload, and
 * the retry schedule. Pure rules; storage is in app/features/automation/webhook.server.ts, sending in
 * app/features/automation/webhook-sender.server.ts.
 */
export const WEBHOOK_EVENTS = ['change', 'comment', 'project'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]
export const URL_MAX = 2000
export const SECRET_PREFIX = 'whsec_'
/** The delivery log keeps (and shows) this many messages per endpoint. */
export const DELIVERY_LOG_SIZE = 50
/** A 2xx within this long is success. */
export const DELIVERY_TIMEOUT_MS = 10_000
/** The log keeps at most this much of a response body. */
export const RESPONSE_BODY_MAX = 4096
/** About 10 s, 1 min, 10 min, 1 h, 6 h; every later retry waits 6 h too. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 600_000, 3_600_000, 21_600_000]
/** After this long of failing, the endpoint is disabled. */
export const FAILURE_WINDOW_MS = 24 * 60 * 60 * 1000

export const createWebhookSchema = z.object({
  url: z
    .string({ error: 'Enter the endpoint URL.' })
    .trim()
    .min(1, 'Enter the endpoint URL.')
    .max(URL_MAX, `Maximum ${URL_MAX} characters.`),
  projectId: uuidSchema.nullish().transform((v) => v ?? null),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: 'Events are change, comment or project.' }), {
      error: 'Choose at least one event.',
    })
    .min(1, 'Choose at least one event.')
    .transform((list) => WEBHOOK_EVENTS.filter((e) => list.includes(e))),
})
export type CreateWebhookInput = z.output<typeof createWebhookSchema>

export type UrlVerdict =
  { ok: true; url: URL } | { ok: false; code: 'url_invalid' | 'url_not_allowed'; message: string }

/** The URL's form: http(s), with a host, no credentials; http only when allowed. Addresses are checked apart. */
export function checkUrlForm(text: string, allowHttp: boolean): UrlVerdict {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, code: 'url_invalid', message: 'Enter a valid URL.' }
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname)
    return { ok: false, code: 'url_invalid', message: 'The URL must start with https://.' }
  if (url.username || url.password)
    return { ok: false, code: 'url_invalid', message: 'The URL must not hold a user name or password.' }
  if (url.protocol === 'http:' && !allowHttp)
    return { ok: false, code: 'url_not_allowed', message: 'The URL must start with https://.' }
  return { ok: true, url }
}

/** The event type of a change, from the kinds it touched: comments alone, the project, or cards. */
export function eventTypeOf(kinds: readonly string[]): WebhookEvent {
  if (kinds.length > 0 && kinds.every((k) => k === 'featureComment')) return 'comment'
  if (kinds.includes('project')) return 'project'
  return 'change'
}

/** Whether an endpoint wants a change of this type in this project. */
export function endpointWants(
  endpoint: { projectId: string | null; events: readonly string[]; disabledAt: string | null },
  projectId: string,
  type: WebhookEvent,
): boolean {
  return (
    endpoint.disabledAt === null &&
    (endpoint.projectId === null || endpoint.projectId === projectId) &&
    endpoint.events.includes(type)
  )
}

/**
 * The body sent: `{"type","workspaceId","projectId", then the §6 event's fields}`. The event is
 * JSON text as the change log keeps it (`{"version",…}`), spliced in unparsed.
 */
export function payloadJson(
  type: string,
  workspaceId: string,
  projectId: string | null,
  eventJson: string,
): string {
  const head = `{"type":${JSON.stringify(type)},"workspaceId":${JSON.stringify(workspaceId)},"projectId":${JSON.stringify(projectId)}`
  const rest = eventJson.trim().slice(1)
  return rest.startsWith('}') ? `${head}}` : `${head},${rest}`
}

/** When attempt number `attempt` (1 = the first) failed, how long until the next one. */
export function retryDelayMs(attempt: number, scale = 1): number {
  const delay = RETRY_DELAYS_MS[Math.min(Math.max(attempt, 1), RETRY_DELAYS_MS.length) - 1]
  return Math.max(1, Math.round(delay * scale))
}

/** Whether an endpoint failing since `since` has failed long enough to be disabled. */
export function failedTooLong(since: string, now: Date, scale = 1): boolean {
  return now.getTime() - Date.parse(since) >= FAILURE_WINDOW_MS * scale
}

export const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300
