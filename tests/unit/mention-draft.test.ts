import { describe, expect, it } from 'vitest'
import {
  draftFromStored,
  editDraft,
  mentionQueryInDraft,
  pickMention,
  removeMentionAt,
  storedFromDraft,
  type MentionDraft,
} from '~/features/board/mention-draft'

/** The comment box's text while written (CONTRACT §12): `@Name` on screen, `@[member:{id}]` stored. */
const names: Record<string, string> = { ada: 'Ada Lovelace', bob: 'Bob', bob2: 'Bob' }
const nameOf = (id: string) => names[id]
const draftOf = (stored: string) => draftFromStored(stored, nameOf)
const stored = (draft: MentionDraft) => storedFromDraft(draft)

/** Types `insert` over `from`–`to` (a caret when equal), as the textarea would. */
function type(draft: MentionDraft, from: number, to: number, insert: string) {
  const text = draft.text.slice(0, from) + insert + draft.text.slice(to)
  return editDraft(draft, text, from + insert.length, nameOf)
}

describe('mention draft: stored text ⇄ text on screen', () => {
  it('shows each token as @Name and gives the same stored text back', () => {
    const draft = draftOf('Ask @[member:ada] and @[member:bob]!')
    expect(draft.text).toBe('Ask @Ada Lovelace and @Bob!')
    expect(draft.mentions).toEqual([
      { start: 4, end: 17, memberId: 'ada' },
      { start: 22, end: 26, memberId: 'bob' },
    ])
    expect(stored(draft)).toBe('Ask @[member:ada] and @[member:bob]!')
  })

  it('keeps an unknown member’s token, shown as @someone', () => {
    const draft = draftOf('cc @[member:gone]')
    expect(draft.text).toBe('cc @someone')
    expect(stored(draft)).toBe('cc @[member:gone]')
  })

  it('has line breaks as a textarea has them', () => {
    expect(draftOf('Hi\r\n@[member:bob]').text).toBe('Hi\n@Bob')
  })

  it('leaves text that only looks like a name as plain text', () => {
    const draft = draftOf('@Bob wrote this')
    expect(draft.mentions).toEqual([])
    expect(stored(draft)).toBe('@Bob wrote this')
  })
})

describe('mention draft: picking a member', () => {
  it('puts @Name and one space in place of the @query', () => {
    const picked = pickMention(draftOf('Ask @ad'), 4, 7, { id: 'ada', name: 'Ada Lovelace' })
    expect(picked.draft.text).toBe('Ask @Ada Lovelace ')
    expect(picked.caret).toBe(18)
    expect(stored(picked.draft)).toBe('Ask @[member:ada] ')
  })

  it('adds no second space when one follows, and the caret goes past it', () => {
    const picked = pickMention(draftOf('Ask @ad about it'), 4, 7, { id: 'ada', name: 'Ada Lovelace' })
    expect(picked.draft.text).toBe('Ask @Ada Lovelace about it')
    expect(picked.caret).toBe(18)
    expect(stored(picked.draft)).toBe('Ask @[member:ada] about it')
  })

  it('tells two members with the same name apart', () => {
    let draft = draftOf('')
    draft = pickMention(type(draft, 0, 0, '@b').draft, 0, 2, { id: 'bob', name: 'Bob' }).draft
    draft = pickMention(type(draft, 5, 5, '@b').draft, 5, 7, { id: 'bob2', name: 'Bob' }).draft
    expect(draft.text).toBe('@Bob @Bob ')
    expect(stored(draft)).toBe('@[member:bob] @[member:bob2] ')
  })

  it('shifts the mentions after the one picked', () => {
    const draft = draftOf('@ and @[member:bob]')
    const picked = pickMention(draft, 0, 1, { id: 'ada', name: 'Ada Lovelace' })
    expect(stored(picked.draft)).toBe('@[member:ada] and @[member:bob]')
  })
})

describe('mention draft: typing around and inside mentions', () => {
  const draft = draftOf('Hi @[member:ada] and @[member:bob]')
  // 'Hi @Ada Lovelace and @Bob': Ada is 3–16, Bob 21–25.

  it('moves a mention along when text before it changes', () => {
    expect(stored(type(draft, 0, 0, 'Oh, ').draft)).toBe('Oh, Hi @[member:ada] and @[member:bob]')
    expect(stored(type(draft, 0, 3, '').draft)).toBe('@[member:ada] and @[member:bob]')
    expect(stored(type(draft, 16, 21, ', ').draft)).toBe('Hi @[member:ada], @[member:bob]')
  })

  it('keeps the mention when typing right after or right before it', () => {
    expect(stored(type(draft, 16, 16, '!').draft)).toBe('Hi @[member:ada]! and @[member:bob]')
    expect(stored(type(draft, 3, 3, 'x').draft)).toBe('Hi x@[member:ada] and @[member:bob]')
    // A letter that repeats the name's last one still goes after the name.
    const bob = draftOf('@[member:bob]')
    expect(stored(type(bob, 4, 4, 'b').draft)).toBe('@[member:bob]b')
  })

  it('turns a mention whose name is edited into plain text', () => {
    expect(stored(type(draft, 7, 7, 'x').draft)).toBe('Hi @Adax Lovelace and @[member:bob]')
    expect(stored(type(draft, 15, 16, '').draft)).toBe('Hi @Ada Lovelac and @[member:bob]')
    expect(stored(type(draft, 10, 23, '').draft)).toBe('Hi @Ada Loob')
  })

  it('drops a mention wholly selected and typed over', () => {
    expect(stored(type(draft, 3, 16, 'you').draft)).toBe('Hi you and @[member:bob]')
  })

  it('turns pasted tokens into mentions and puts the caret after the paste', () => {
    const pasted = type(draftOf('cc '), 3, 3, '@[member:bob] and @[member:ada]')
    expect(pasted.draft.text).toBe('cc @Bob and @Ada Lovelace')
    expect(pasted.caret).toBe(25)
    expect(stored(pasted.draft)).toBe('cc @[member:bob] and @[member:ada]')
  })
})

describe('mention draft: deleting a mention as one piece', () => {
  const draft = draftOf('Hi @[member:ada] and @[member:bob]')

  it('Backspace right after a mention removes all of it', () => {
    const removed = removeMentionAt(draft, 16, 'backward')!
    expect(removed.draft.text).toBe('Hi  and @Bob')
    expect(removed.caret).toBe(3)
    expect(stored(removed.draft)).toBe('Hi  and @[member:bob]')
  })

  it('Delete right before a mention removes all of it', () => {
    const removed = removeMentionAt(draft, 21, 'forward')!
    expect(stored(removed.draft)).toBe('Hi @[member:ada] and ')
    expect(removed.caret).toBe(21)
  })

  it('does nothing special elsewhere', () => {
    expect(removeMentionAt(draft, 10, 'backward')).toBeNull()
    expect(removeMentionAt(draft, 16, 'forward')).toBeNull()
    expect(removeMentionAt(draft, 3, 'backward')).toBeNull()
  })
})

describe('mention draft: the @query being typed', () => {
  it('is found after a space, as in plain text', () => {
    expect(mentionQueryInDraft(draftOf('Hi @[member:ada] @lo'), 20)).toEqual({ start: 17, query: 'lo' })
  })

  it('is not found inside a picked mention', () => {
    expect(mentionQueryInDraft(draftOf('Hi @[member:ada]'), 7)).toBeNull()
    expect(mentionQueryInDraft(draftOf('@[member:bob]'), 4)).toBeNull()
  })
})
