import { describe, expect, it } from 'vitest'
import { can, LEVEL_NAMES, LEVELS, type Action, type Level } from '~/features/map/permissions'

const ALL: Action[] = ['read', 'edit', 'leave', 'viewMembers', 'invite', 'cancelInvite', 'resendInvite', 'changeRole', 'removeMember', 'manageSharing', 'manageBilling', 'deleteWorkspace', 'manageTokens']

// Expected truth table (SPEC §6): level -> actions allowed with an active plan / with an ended plan.
const ACTIVE: Record<Level, Action[]> = {
  VIEWER: ['read', 'leave'],
  EDITOR: ['read', 'leave', 'edit'],
  ADMIN: ['read', 'leave', 'edit', 'viewMembers', 'invite', 'cancelInvite', 'resendInvite', 'changeRole', 'removeMember', 'manageSharing', 'manageTokens'],
  OWNER: ['read', 'edit', 'viewMembers', 'invite', 'cancelInvite', 'resendInvite', 'changeRole', 'removeMember', 'manageSharing', 'manageBilling', 'deleteWorkspace', 'manageTokens'],
}
const ENDED: Record<Level, Action[]> = {
  VIEWER: ['read', 'leave'],
  EDITOR: ['read', 'leave'],
  ADMIN: ['read', 'leave', 'viewMembers', 'cancelInvite', 'removeMember', 'manageTokens'],
  OWNER: ['read', 'viewMembers', 'cancelInvite', 'removeMember', 'manageBilling', 'deleteWorkspace', 'manageTokens'],
}

describe('can(level × plan × action)', () => {
  for (const level of LEVELS) {
    for (const action of ALL) {
      it(`${level} ${action} with an active plan: ${ACTIVE[level].includes(action)}`, () => {
        expect(can({ level, planActive: true }, action)).toBe(ACTIVE[level].includes(action))
      })
      it(`${level} ${action} with an ended plan: ${ENDED[level].includes(action)}`, () => {
        expect(can({ level, planActive: false }, action)).toBe(ENDED[level].includes(action))
      })
    }
  }
})

describe('LEVEL_NAMES', () => {
  it('names every level with a word, as pages show it (the API keeps the codes)', () => {
    expect(LEVELS.map((level) => LEVEL_NAMES[level])).toEqual(['Viewer', 'Editor', 'Admin', 'Owner'])
  })
})
