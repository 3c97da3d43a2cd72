import { describe, expect, it } from 'vitest'
import { isBoardWrite, isOverlayMove } from '~/http/revalidation'

const url = (path: string) => new URL(path, 'http://storymap.test')

describe('isOverlayMove', () => {
  it('is opening, switching or closing a card dialog over the same board', () => {
    expect(isOverlayMove(url('/acme/projects/p1'), url('/acme/projects/p1/f/c1'))).toBe(true)
    expect(isOverlayMove(url('/acme/projects/p1/f/c1'), url('/acme/projects/p1/m/r1'))).toBe(true)
    expect(isOverlayMove(url('/acme/projects/p1/sw/a1'), url('/acme/projects/p1'))).toBe(true)
  })

  it('is not a move to another page, nor a reload of the same address', () => {
    expect(isOverlayMove(url('/acme/projects/p1'), url('/acme/projects/p2/f/c1'))).toBe(false)
    expect(isOverlayMove(url('/acme/projects/p1'), url('/acme/settings'))).toBe(false)
    expect(isOverlayMove(url('/acme/projects/p1/f/c1'), url('/acme/projects/p1/f/c1'))).toBe(false)
  })
})

describe('isBoardWrite', () => {
  it('is a JSON command posted to a project page', () => {
    expect(isBoardWrite({ formAction: '/acme/projects/p1', formEncType: 'application/json' })).toBe(true)
    expect(
      isBoardWrite({ formAction: '/acme/projects/p1', formEncType: 'application/x-www-form-urlencoded' }),
    ).toBe(false)
    expect(isBoardWrite({ formAction: '/acme/settings', formEncType: 'application/json' })).toBe(false)
  })
})
