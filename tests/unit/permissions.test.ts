import { describe, expect, it } from 'vitest'
import {
  assignableLevels,
  can,
  isOwner,
  LEVEL_NAMES,
  LEVELS,
  levelsAllowed,
  type Action,
  type Level,
} from '~/features/map/permissions'

const ALL: Action[] = [
  'read',
  'edit',
  'leave',
  'viewMembers',
  'invite',
  'cancelInvite',
  'resendInvite',
  'changeRole',
  'removeMember',
  'manageSharing',
  'manageBilling',
  'deleteWorkspace',
  'manageTokens',
  'manageWebhooks',
  'linkTracker',
  'manageMembers',
  'manageOwners',
  'hearOfTrackerFailures',
  'hearOfWebhookFailures',
]

// Expected truth table (SPEC §6): level -> actions allowed with an active plan / with an ended plan.
const ACTIVE: Record<Level, Action[]> = {
  VIEWER: ['read', 'leave'],
  EDITOR: ['read', 'leave', 'edit'],
  ADMIN: [
    'read',
    'leave',
    'edit',
    'viewMembers',
    'invite',
    'cancelInvite',
    'resendInvite',
    'changeRole',
    'removeMember',
    'manageSharing',
    'manageTokens',
    'manageWebhooks',
    'linkTracker',
    'manageMembers',
    'hearOfTrackerFailures',
  ],
  OWNER: [
    'read',
    'edit',
    'viewMembers',
    'invite',
    'cancelInvite',
    'resendInvite',
    'changeRole',
    'removeMember',
    'manageSharing',
    'manageBilling',
    'deleteWorkspace',
    'manageTokens',
    'manageWebhooks',
    'linkTracker',
    'manageMembers',
    'manageOwners',
    'hearOfTrackerFailures',
    'hearOfWebhookFailures',
  ],
}
const ENDED: Record<Level, Action[]> = {
  VIEWER: ['read', 'leave'],
  EDITOR: ['read', 'leave'],
  ADMIN: [
    'read',
    'leave',
    'viewMembers',
    'cancelInvite',
    'removeMember',
    'manageTokens',
    'manageWebhooks',
    'manageMembers',
    'hearOfTrackerFailures',
  ],
  OWNER: [
    'read',
    'viewMembers',
    'cancelInvite',
    'removeMember',
    'manageBilling',
    'deleteWorkspace',
    'manageTokens',
    'manageWebhooks',
    'manageMembers',
    'manageOwners',
    'hearOfTrackerFailures',
    'hearOfWebhookFailures',
  ],
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

describe('questions to the table', () => {
  it('who is told of a stopped tracker sync and of a disabled webhook', () => {
    expect(levelsAllowed('hearOfTrackerFailures')).toEqual(['ADMIN', 'OWNER'])
    expect(levelsAllowed('hearOfWebhookFailures')).toEqual(['OWNER'])
  })
  it('who may use the assistant: editors and up, on an active plan only', () => {
    expect(levelsAllowed('useAssistant')).toEqual(['EDITOR', 'ADMIN', 'OWNER'])
    expect(LEVELS.filter((level) => can({ level, planActive: false }, 'useAssistant'))).toEqual([])
  })
  it('which levels a member may give: an owner any, an admin all but owner', () => {
    expect(assignableLevels('OWNER')).toEqual(['VIEWER', 'EDITOR', 'ADMIN', 'OWNER'])
    expect(assignableLevels('ADMIN')).toEqual(['VIEWER', 'EDITOR', 'ADMIN'])
  })
  it('only OWNER is an owner', () => {
    expect(LEVELS.filter(isOwner)).toEqual(['OWNER'])
  })
})

describe('LEVEL_NAMES', () => {
  it('names every level with a word, as pages show it (the API keeps the codes)', () => {
    expect(LEVELS.map((level) => LEVEL_NAMES[level])).toEqual(['Viewer', 'Editor', 'Admin', 'Owner'])
  })
})
