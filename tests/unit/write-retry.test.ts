import { describe, expect, it } from 'vitest'
import { isSettledByRetry, retryDelayMs } from '~/features/board/write-retry'

describe('retryDelayMs', () => {
  it('goes at once first, then waits 1, 2, 4, 8 s and never more than 15 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(retryDelayMs)).toEqual([
      0, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000,
    ])
  })
})

describe('isSettledByRetry', () => {
  const refused = (status: number, error: string) => ({ ok: false as const, status, error, message: '' })
  it('takes a create whose id is taken, or a delete of what is gone, as the earlier attempt having landed', () => {
    expect(isSettledByRetry({ type: 'feature.create' }, refused(409, 'id_taken'))).toBe(true)
    expect(isSettledByRetry({ type: 'comment.create' }, refused(409, 'id_taken'))).toBe(true)
    expect(isSettledByRetry({ type: 'workflowPersona.create' }, refused(409, 'already_linked'))).toBe(true)
    expect(isSettledByRetry({ type: 'card.delete' }, refused(404, 'not_found'))).toBe(true)
    expect(isSettledByRetry({ type: 'comment.delete' }, refused(404, 'not_found'))).toBe(true)
  })
  it('keeps every other refusal: the write is rolled back with its message', () => {
    expect(isSettledByRetry({ type: 'feature.create' }, refused(400, 'title_invalid'))).toBe(false)
    expect(isSettledByRetry({ type: 'feature.create' }, refused(403, 'level_too_low'))).toBe(false)
    expect(isSettledByRetry({ type: 'card.rename' }, refused(404, 'not_found'))).toBe(false)
    expect(isSettledByRetry({ type: 'card.delete' }, refused(403, 'plan_inactive'))).toBe(false)
    expect(isSettledByRetry({ type: 'feature.move' }, refused(409, 'id_taken'))).toBe(false)
  })
})
