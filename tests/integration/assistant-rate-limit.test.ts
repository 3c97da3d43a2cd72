import { describe, expect, it } from 'vitest'
import {
  ASSISTANT_REQUESTS_PER_MINUTE,
  createAssistantRateLimit,
} from '~/features/assistant/assistant-rate-limit.server'
import { DomainError, STATUS_OF_KIND } from '~/lib/errors'

/** At most 20 assistant requests a minute per member (CONTRACT §16): the 21st is a 429 with Retry-After. */
describe('the assistant’s rate limit', () => {
  it('lets a member make 20 requests a minute, refuses the 21st with 429 and Retry-After', async () => {
    expect(ASSISTANT_REQUESTS_PER_MINUTE).toBe(20)
    const limit = createAssistantRateLimit()
    for (let i = 0; i < 20; i++) await limit.take('member-a')
    const error = await limit.take('member-a').then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(DomainError)
    const refusal = error as DomainError
    expect(STATUS_OF_KIND[refusal.kind]).toBe(429)
    expect(refusal.code).toBe('too_many_requests')
    expect(refusal.message).toBe('Too many attempts. Please try again in a minute.')
    expect(refusal.retryAfter).toBeGreaterThanOrEqual(59)
    expect(refusal.retryAfter).toBeLessThanOrEqual(60)
  })

  it('counts each member on their own', async () => {
    const limit = createAssistantRateLimit({ points: 2 })
    await limit.take('member-a')
    await limit.take('member-a')
    await expect(limit.take('member-a')).rejects.toBeInstanceOf(DomainError)
    await expect(limit.take('member-b')).resolves.toBeUndefined()
  })

  it('lets requests through again once the minute has passed', async () => {
    const limit = createAssistantRateLimit({ points: 1, durationSeconds: 1 })
    await limit.take('member-a')
    await expect(limit.take('member-a')).rejects.toMatchObject({ retryAfter: 1 })
    await expect
      .poll(
        () =>
          limit.take('member-a').then(
            () => 'through',
            () => 'refused',
          ),
        { timeout: 2_500, interval: 100 },
      )
      .toBe('through')
  })

  it('is off with RATE_LIMIT=off', async () => {
    const limit = createAssistantRateLimit({ enabled: false })
    for (let i = 0; i < 50; i++) await limit.take('member-a')
  })
})
