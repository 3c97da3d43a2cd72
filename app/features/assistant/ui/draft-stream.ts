import type { MapFile } from '~/features/assistant'
import { failureMessage, postAssistant } from './assistant-client'

/** One line of the streamed draft (CONTRACT §16; assistant.server.ts `DraftLine`). */
export type DraftLine =
  | { type: 'partial'; draft: unknown }
  | { type: 'retry' }
  | { type: 'done'; map: MapFile }
  | { type: 'error'; error: { code: string; message: string } }

/**
 * Asks for a drafted map as NDJSON lines and hands each line on as it arrives. A refusal before
 * the stream began (a bad description, the limit) and a lost connection come as an `error` line.
 */
export async function streamDraft(
  workspaceId: string,
  description: string,
  signal: AbortSignal,
  onLine: (line: DraftLine) => void,
): Promise<void> {
  const failed = (message: string) => onLine({ type: 'error', error: { code: 'failed', message } })
  let response: Response
  try {
    response = await postAssistant(
      '/v1/assistant/draft-map',
      workspaceId,
      { description },
      { signal, stream: true },
    )
  } catch {
    if (!signal.aborted) failed('Something went wrong.')
    return
  }
  if (!response.ok || !response.body) return failed(await failureMessage(response))
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  let ended = false
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      buffered += value
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const text of lines) {
        if (!text.trim()) continue
        const line = JSON.parse(text) as DraftLine
        if (line.type === 'done' || line.type === 'error') ended = true
        onLine(line)
      }
    }
  } catch {
    if (signal.aborted) return
  }
  if (!ended && !signal.aborted) failed('The draft stopped before it was finished. Try again.')
}
