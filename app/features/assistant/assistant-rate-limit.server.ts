import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { tooManyMessage } from '~/http/abuse'
import { DomainError } from '~/lib/errors'
import { singleton } from '~/lib/singleton.server'

/**
 * At most 20 assistant requests a minute per member (CONTRACT §16), counted in memory
 * (rate-limiter-flexible): one process, and a restart forgives everyone, like the other limits.
 * Over the limit: 429 `too_many_requests` with `Retry-After` (DomainError.retryAfter).
 */
export const ASSISTANT_REQUESTS_PER_MINUTE = 20

export type AssistantRateLimit = {
  /** Counts one request of this member, or throws the 429 when it is one too many. */
  take(memberId: string): Promise<void>
}

export function createAssistantRateLimit(
  options: { points?: number; durationSeconds?: number; enabled?: boolean } = {},
): AssistantRateLimit {
  if (options.enabled === false) return { take: async () => undefined }
  const limiter = new RateLimiterMemory({
    keyPrefix: 'assistant',
    points: options.points ?? ASSISTANT_REQUESTS_PER_MINUTE,
    duration: options.durationSeconds ?? 60,
  })
  return {
    async take(memberId) {
      try {
        await limiter.consume(`member:${memberId}`)
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal
        const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))
        const error = new DomainError('too_many', 'too_many_requests', tooManyMessage(seconds))
        error.retryAfter = seconds
        throw error
      }
    },
  }
}

/** The process's limit for the routes; `RATE_LIMIT=off` turns it off. */
export function takeAssistantRequest(memberId: string, env: { RATE_LIMIT: 'on' | 'off' }): Promise<void> {
  return singleton('assistant-rate-limit', () =>
    createAssistantRateLimit({ enabled: env.RATE_LIMIT !== 'off' }),
  ).take(memberId)
}
