import { describe, expect, it } from 'vitest'
import {
  cancelInviteRefusal,
  deleteWorkspaceRefusal,
  invitationForText,
  inviteRefusal,
  leaveRefusal,
  levelChangeRefusal,
  MEMBERSHIP_TEXT as T,
  planAccountDeletion,
  removalRefusal,
} from '~/features/workspaces/membership'
import { normalizeEmail } from '~/lib/email-address'
import { LEVELS, type Level } from '~/features/map/permissions'

const actor = (level: Level, planActive = true) => ({ level, planActive, memberId: 'me' })
const other = (level: Level) => ({ id: 'other', level })

describe('levelChangeRefusal', () => {
  it('nobody changes their own level, whatever the level', () => {
    for (const level of LEVELS)
      expect(levelChangeRefusal(actor(level), { id: 'me', level }, 'VIEWER', 2)).toBe(T.ownLevel)
  })
  it('VIEWER and EDITOR cannot change anyone', () => {
    expect(levelChangeRefusal(actor('VIEWER'), other('VIEWER'), 'EDITOR', 1)).toBe(T.notAdmin)
    expect(levelChangeRefusal(actor('EDITOR'), other('VIEWER'), 'EDITOR', 1)).toBe(T.notAdmin)
  })
  it('an inactive plan stops role changes', () => {
    expect(levelChangeRefusal(actor('OWNER', false), other('VIEWER'), 'EDITOR', 1)).toBe(T.planInactive)
  })
  it('an ADMIN cannot make or change an OWNER, but can set the other levels', () => {
    expect(levelChangeRefusal(actor('ADMIN'), other('EDITOR'), 'OWNER', 1)).toBe(T.ownerOnly)
    expect(levelChangeRefusal(actor('ADMIN'), other('OWNER'), 'VIEWER', 2)).toBe(T.ownerOnly)
    for (const level of ['VIEWER', 'EDITOR', 'ADMIN'] as const) {
      expect(levelChangeRefusal(actor('ADMIN'), other('VIEWER'), level, 1)).toBeNull()
    }
  })
  it('an OWNER can make owners and demote another owner, never the last one', () => {
    expect(levelChangeRefusal(actor('OWNER'), other('ADMIN'), 'OWNER', 1)).toBeNull()
    expect(levelChangeRefusal(actor('OWNER'), other('OWNER'), 'ADMIN', 2)).toBeNull()
    expect(levelChangeRefusal(actor('OWNER'), other('OWNER'), 'ADMIN', 1)).toBe(T.keepOwner)
  })
})

describe('removalRefusal', () => {
  it('refuses self-removal, low levels, ADMIN removing an OWNER and the last owner', () => {
    expect(removalRefusal(actor('OWNER'), { id: 'me', level: 'OWNER' }, 2)).toBe(T.ownRemoval)
    expect(removalRefusal(actor('EDITOR'), other('VIEWER'), 1)).toBe(T.notAdmin)
    expect(removalRefusal(actor('ADMIN'), other('OWNER'), 2)).toBe(T.ownerOnly)
    expect(removalRefusal(actor('OWNER'), other('OWNER'), 1)).toBe(T.keepOwner)
  })
  it('allows admins to remove on an inactive plan', () => {
    expect(removalRefusal(actor('ADMIN', false), other('EDITOR'), 1)).toBeNull()
    expect(removalRefusal(actor('OWNER'), other('OWNER'), 2)).toBeNull()
  })
})

describe('leave and delete workspace', () => {
  it('everyone but an OWNER may leave', () => {
    expect(leaveRefusal(actor('OWNER'))).toBe(T.ownerLeave)
    for (const level of ['VIEWER', 'EDITOR', 'ADMIN'] as const)
      expect(leaveRefusal(actor(level, false))).toBeNull()
  })
  it('only an OWNER deletes, even on an inactive plan', () => {
    expect(deleteWorkspaceRefusal(actor('OWNER', false))).toBeNull()
    for (const level of ['VIEWER', 'EDITOR', 'ADMIN'] as const)
      expect(deleteWorkspaceRefusal(actor(level))).toBe(T.notOwner)
  })
})

describe('invites', () => {
  it('ADMIN and OWNER send invites of their reach while the plan is active', () => {
    expect(inviteRefusal(actor('VIEWER'), 'VIEWER')).toBe(T.notAdmin)
    expect(inviteRefusal(actor('EDITOR'), 'VIEWER')).toBe(T.notAdmin)
    expect(inviteRefusal(actor('ADMIN'), 'ADMIN')).toBeNull()
    expect(inviteRefusal(actor('ADMIN'), 'OWNER')).toBe(T.ownerOnly)
    expect(inviteRefusal(actor('OWNER'), 'OWNER')).toBeNull()
    expect(inviteRefusal(actor('OWNER', false), 'VIEWER')).toBe(T.planInactive)
    expect(inviteRefusal(actor('OWNER', false), 'VIEWER', true)).toBe(T.planInactive)
    expect(inviteRefusal(actor('ADMIN'), 'OWNER', true)).toBe(T.ownerOnly)
  })
  it('cancelling works on an inactive plan, but not for an ADMIN on an OWNER invite', () => {
    expect(cancelInviteRefusal(actor('ADMIN', false), 'EDITOR')).toBeNull()
    expect(cancelInviteRefusal(actor('ADMIN'), 'OWNER')).toBe(T.ownerOnly)
    expect(cancelInviteRefusal(actor('OWNER', false), 'OWNER')).toBeNull()
    expect(cancelInviteRefusal(actor('EDITOR'), 'VIEWER')).toBe(T.notAdmin)
  })
})

describe('planAccountDeletion', () => {
  const m = (workspaceId: string, level: Level, memberCount: number, ownerCount: number) => ({
    workspaceId,
    workspaceName: `ws-${workspaceId}`,
    level,
    memberCount,
    ownerCount,
  })
  it('deletes the workspaces where the account is alone', () => {
    expect(planAccountDeletion([m('a', 'OWNER', 1, 1), m('b', 'EDITOR', 3, 1)])).toEqual({
      ok: true,
      deleteWorkspaceIds: ['a'],
    })
    expect(planAccountDeletion([])).toEqual({ ok: true, deleteWorkspaceIds: [] })
  })
  it('is refused while it is the last OWNER of a shared workspace', () => {
    const plan = planAccountDeletion([m('a', 'OWNER', 1, 1), m('b', 'OWNER', 2, 1)])
    expect(plan).toEqual({ ok: false, message: expect.stringContaining('ws-b') })
  })
  it('is allowed when another OWNER remains', () => {
    expect(planAccountDeletion([m('b', 'OWNER', 3, 2)])).toEqual({ ok: true, deleteWorkspaceIds: [] })
  })
})

describe('an invitation and its address', () => {
  it('compares addresses without surrounding spaces or letter case', () => {
    expect(normalizeEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com')
  })
  it('tells another account whom the invitation is for', () => {
    expect(invitationForText('ann@example.com')).toBe('This invitation is for ann@example.com.')
  })
})
