import { describe, expect, it } from 'vitest'
import { askToRelink, sendReleaseMessage, unlinkQuestion } from '~/features/trackers/github/github-texts'

describe('what the board says about GitHub (issue 43)', () => {
  it('says how many issues Send to GitHub made, and how many features failed', () => {
    expect(sendReleaseMessage(1, 0)).toBe('1 GitHub issue made.')
    expect(sendReleaseMessage(3, 0)).toBe('3 GitHub issues made.')
    expect(sendReleaseMessage(2, 1)).toBe('2 GitHub issues made; 1 feature could not be sent.')
    expect(sendReleaseMessage(0, 2)).toBe('No GitHub issue made; 2 features could not be sent.')
    expect(sendReleaseMessage(0, 0)).toBe(
      'No GitHub issue made: every open feature of this release has one already.',
    )
  })

  it('names who can relink: the member who linked, or owners and admins when that is oneself', () => {
    const ana = { memberId: 'ana', name: 'Ana Lima' }
    expect(askToRelink(ana, { memberId: 'bea' })).toBe('Ask Ana Lima or an admin to relink.')
    expect(askToRelink(ana, { memberId: 'ana' })).toBe('Ask an owner or an admin to relink.')
  })

  it('asks before unlinking, saying that waiting changes are kept for the same repository', () => {
    expect(unlinkQuestion('acme/shop', 0)).toBe(
      'Unlink acme/shop? Sync stops; the features keep their issue numbers.',
    )
    expect(unlinkQuestion('acme/shop', 2)).toBe(
      'Unlink acme/shop? Sync stops; the features keep their issue numbers. Changes to 2 features are still waiting to be pushed: they are kept, and sent when you link acme/shop again.',
    )
  })
})
