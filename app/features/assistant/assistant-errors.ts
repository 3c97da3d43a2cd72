import { DomainError } from '~/lib/errors'

/**
 * How the assistant fails (CONTRACT §16), as DomainErrors with the contract's codes; their kind
 * gives the /v1 status (`upstream` 502, `timeout` 504), and `status` says it too.
 */
export type AssistantErrorCode = 'assistant_failed' | 'assistant_timeout' | 'assistant_unavailable'

export const ASSISTANT_MESSAGES: Record<AssistantErrorCode, string> = {
  assistant_failed: "The assistant's answer could not be used. Try again.",
  assistant_timeout: 'The assistant did not answer in time. Try again.',
  assistant_unavailable: 'The assistant is unavailable: its model refused the key. Ask an administrator.',
}

const STATUS: Record<AssistantErrorCode, 502 | 504> = {
  assistant_failed: 502,
  assistant_timeout: 504,
  assistant_unavailable: 502,
}

export class AssistantError extends DomainError {
  readonly status: 502 | 504
  constructor(
    readonly code: AssistantErrorCode,
    options?: { cause?: unknown },
  ) {
    super(code === 'assistant_timeout' ? 'timeout' : 'upstream', code, ASSISTANT_MESSAGES[code])
    this.name = 'AssistantError'
    this.status = STATUS[code]
    if (options?.cause !== undefined) this.cause = options.cause
  }
}
