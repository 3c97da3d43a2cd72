import { createEventBuffer, type EventBuffer } from 'better-sse'

/**
 * SSE text, formatted by better-sse. Every field gets the customary space after its colon
 * (`event: change`, `: keep-alive`), which the protocol strips again; a line break in a value
 * could start a field of its own, so none gets through (our values are one-line JSON).
 */
export const sseFormat = {
  serializer: (data: unknown) => String(data),
  sanitizer: (text: string) => ` ${text.replace(/[\r\n]+/g, ' ')}`,
}

export type SseText = EventBuffer

/** One event; `id` only for changes, so a browser's Last-Event-ID is always a version. */
export function sseEvent(event: string, data: string, id?: number): SseText {
  const frame = createEventBuffer(sseFormat).event(event)
  if (id !== undefined) frame.id(String(id))
  return frame.data(data).dispatch()
}

export const SSE_KEEP_ALIVE: SseText = createEventBuffer(sseFormat).comment('keep-alive').dispatch()

/** How long a browser waits before reconnecting a dropped stream. */
export const SSE_RETRY: SseText = createEventBuffer(sseFormat).retry(2000).dispatch()

const encoded = new WeakMap<SseText, Uint8Array>()
/** The UTF-8 bytes of a formatted event, encoded once however many streams it goes to. */
export function sseBytes(text: SseText): Uint8Array {
  let bytes = encoded.get(text)
  if (!bytes) encoded.set(text, (bytes = new TextEncoder().encode(text.read())))
  return bytes
}
