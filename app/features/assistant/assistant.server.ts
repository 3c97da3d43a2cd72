import { authorize } from '~/features/map/door.server'
import { can, type Actor } from '~/features/map/permissions'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import type { Env } from '~/lib/env-schema'
import { DomainError } from '~/lib/errors'
import { logger } from '~/lib/logger.server'
import { AssistantError } from './assistant-errors'
import {
  assistantConfigOf,
  draftMap,
  requireAssistant,
  streamDraftMap,
  suggestCriteria,
  suggestSplit,
  type AssistantConfig,
  type CallOptions,
} from './assistant-model.server'
import { takeAssistantRequest } from './assistant-rate-limit.server'
import type { AssistantAction } from './assistant-requests'
import type { AcceptanceCriteria, SplitSuggestions } from './assistant-schemas'
import type { MapFile } from './draft-map-file'
import { readFeaturePlace } from './feature-context.server'

/**
 * The assistant's routes (CONTRACT §16) in the order their refusals come: the assistant switched
 * off (404 `assistant_off`, before anything but the caller's identity), then the permission
 * table's `useAssistant`, then the per-member limit; then the model. Nothing here writes.
 */

/** Whether the assistant's buttons show for this member: it is set up, and the table allows it. */
export function assistantAvailableTo(ctx: Actor, env: Env): boolean {
  return assistantConfigOf(env) !== null && can(ctx, 'useAssistant')
}

/** The configuration for a member who may use the assistant now, this request counted. */
export async function admitAssistantRequest(ctx: WorkspaceContext, env: Env): Promise<AssistantConfig> {
  const config = requireAssistant(env)
  authorize(ctx, 'useAssistant')
  await takeAssistantRequest(ctx.member.id, env)
  return config
}

/** `POST /v1/assistant/draft-map`: the drafted map in the §8 JSON shape. */
export async function draftMapAnswer(
  config: AssistantConfig,
  description: string,
  options: CallOptions = {},
): Promise<{ map: MapFile }> {
  return { map: (await draftMap(config, description, options)).map }
}

/** `POST /v1/features/{id}/assistant`: suggestions for a feature of the caller's workspace. */
export async function featureSuggestions(
  ctx: WorkspaceContext,
  config: AssistantConfig,
  featureId: string,
  action: AssistantAction,
  options: CallOptions = {},
): Promise<{ suggestions: SplitSuggestions['suggestions'] } | { criteria: AcceptanceCriteria['criteria'] }> {
  const { context } = readFeaturePlace(ctx.workspace.id, featureId)
  if (action === 'split') return { suggestions: await suggestSplit(config, context, options) }
  return { criteria: await suggestCriteria(config, context, options) }
}

/** One line of the streamed draft (`Accept: application/x-ndjson`). */
export type DraftLine =
  | { type: 'partial'; draft: unknown }
  | { type: 'retry' }
  | { type: 'done'; map: MapFile }
  | { type: 'error'; error: { code: string; message: string } }

/** A preview line at most this often: each carries the whole draft so far. */
const PARTIAL_EVERY_MS = 100

/** The JSON answer's code and text for a failure, so the stream ends as the JSON route would answer. */
function errorLine(error: unknown): DraftLine {
  if (error instanceof DomainError)
    return { type: 'error', error: { code: error.code, message: error.message } }
  logger.error({ err: error }, 'assistant: the draft stream failed')
  return { type: 'error', error: { code: 'internal', message: 'Something went wrong.' } }
}

/**
 * The draft as NDJSON lines: previews as the model writes them, `retry` when the first answer was
 * unusable, then `done` with the map, or a last `error` line. The status is 200 once the stream
 * has begun; refusals before it (off, level, limit, a bad body) are the ordinary JSON answers.
 */
export function draftMapStream(config: AssistantConfig, description: string, signal: AbortSignal): Response {
  const events = streamDraftMap(config, description, { signal })
  const encoder = new TextEncoder()
  const encode = (line: DraftLine) => encoder.encode(`${JSON.stringify(line)}\n`)
  let lastPartial = 0
  let cancelled = false
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        for (;;) {
          const next = await events.next()
          if (cancelled) return
          if (next.done) return controller.close()
          const event = next.value
          if (event.type === 'partial') {
            if (Date.now() - lastPartial < PARTIAL_EVERY_MS) continue
            lastPartial = Date.now()
            return controller.enqueue(encode({ type: 'partial', draft: event.draft }))
          }
          if (event.type === 'retry') {
            lastPartial = 0
            return controller.enqueue(encode({ type: 'retry' }))
          }
          controller.enqueue(encode({ type: 'done', map: event.map }))
          return controller.close()
        }
      } catch (error) {
        // The browser went away: nobody reads an error line.
        if (cancelled) return
        if (signal.aborted && !(error instanceof AssistantError)) return controller.close()
        controller.enqueue(encode(errorLine(error)))
        controller.close()
      }
    },
    async cancel() {
      cancelled = true
      await events.return(undefined)
    },
  })
  return new Response(body, {
    headers: {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Cache-Control': 'no-store',
      // A proxy that buffers (nginx) would hold the preview back until the end.
      'X-Accel-Buffering': 'no',
    },
  })
}
