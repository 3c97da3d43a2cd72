import { describe, expect, it } from 'vitest'
import { filterMembers, mentionQueryAt, mentionedIds, renderMentions } from '~/features/map/mentions'

const names: Record<string, string> = { m1: 'Ada Lovelace', m2: 'Bob' }
const nameOf = (id: string) => names[id]

describe('mentions', () => {
  it('finds each mentioned member once', () => {
    expect(mentionedIds('hi @[member:m1] and @[member:m2], @[member:m1]')).toEqual(['m1', 'm2'])
    expect(mentionedIds('mail me at a@b.c')).toEqual([])
  })
  it('shows a mention with the current name, or @someone', () => {
    expect(renderMentions('hi @[member:m1]!', nameOf)).toBe('hi @Ada Lovelace!')
    expect(renderMentions('@[member:zz] look', nameOf)).toBe('@someone look')
  })
  it('knows the @query being typed', () => {
    expect(mentionQueryAt('hello @ad', 9)).toEqual({ start: 6, query: 'ad' })
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' })
    expect(mentionQueryAt('a@b', 3)).toBeNull()
    expect(mentionQueryAt('@ada lovelace', 13)).toBeNull()
  })
  it('filters members by a word of their name', () => {
    const list = [{ name: 'Ada Lovelace' }, { name: 'Bob' }]
    expect(filterMembers(list, 'lov')).toEqual([{ name: 'Ada Lovelace' }])
    expect(filterMembers(list, '')).toHaveLength(2)
  })
})
