import { describe, expect, it } from 'vitest'
import {
  canShareExternally,
  daysLeft,
  initialSubscription,
  isPlanActive,
  planTurnsAt,
  statusText,
  trialBanner,
} from '~/features/map/plan'
import fc from 'fast-check'

const now = new Date('2026-11-22T12:00:00.000Z')
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString()

describe('plan state', () => {
  it('self-hosted workspaces are active without end', () => {
    const sub = initialSubscription('selfhosted', 14, now)
    expect(sub.expirationDate).toBeNull()
    expect(isPlanActive(sub, now)).toBe(true)
    expect(isPlanActive(sub, new Date('2100-01-01'))).toBe(true)
  })

  it('hosted workspaces start a trial of TRIAL_DAYS; 0 means already ended', () => {
    const trial = initialSubscription('hosted', 14, now)
    expect(trial).toMatchObject({ level: 'TRIAL', externalStatus: 'trialing', expirationDate: inDays(14) })
    expect(isPlanActive(trial, now)).toBe(true)
    expect(statusText(trial, now)).toBe('Active (trial)')
    const ended = initialSubscription('hosted', 0, now)
    expect(isPlanActive(ended, now)).toBe(false)
    expect(statusText(ended, now)).toBe('Inactive (trial ended)')
  })

  it.each([
    ['incomplete', 'Inactive (please pay initial payment)', false],
    ['incomplete_expired', 'Inactive (initial payment not received)', false],
    ['active', 'Active (subscribed to a paid monthly plan)', true],
    ['past_due', 'Inactive (payment is past due)', false],
    ['canceled', 'Inactive (canceled by user or due to unpaid invoice)', false],
  ])('%s reads "%s" (active: %s)', (externalStatus, text, active) => {
    const sub = { level: 'BASIC' as const, externalStatus, expirationDate: inDays(10) }
    expect(statusText(sub, now)).toBe(text)
    expect(isPlanActive(sub, now)).toBe(active)
  })

  it('shows the trial banner only under 6 days, with "today" and "in {n} days"', () => {
    const trial = (d: number) => ({
      level: 'TRIAL' as const,
      externalStatus: 'trialing',
      expirationDate: inDays(d),
    })
    expect(trialBanner(trial(6), now)).toBeNull()
    expect(trialBanner(trial(5), now)).toBe('Your trial ends in 5 days.')
    expect(trialBanner(trial(1), now)).toBe('Your trial ends in 1 days.')
    expect(trialBanner(trial(0.3), now)).toBe('Your trial ends today.')
    expect(daysLeft(trial(2.6), now)).toBe(3)
  })

  it('allows the share link only with sharing on and an active trial or paid plan', () => {
    const active = { level: 'BASIC' as const, externalStatus: 'active', expirationDate: null }
    expect(canShareExternally(active, true, now)).toBe(true)
    expect(canShareExternally(active, false, now)).toBe(false)
    expect(canShareExternally({ ...active, externalStatus: 'past_due' }, true, now)).toBe(false)
  })
})

describe('when a plan turns by time alone (a live stream checks its access again then)', () => {
  const statuses = ['trialing', 'active', 'past_due', 'canceled', 'incomplete', 'incomplete_expired']
  it('is the moment isPlanActive changes, and no answer changes before it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...statuses),
        fc.option(fc.integer({ min: -40, max: 40 }), { nil: null }),
        fc.integer({ min: 0, max: 60 * 86_400_000 }),
        (externalStatus, endDays, later) => {
          const sub = {
            level: 'BASIC' as const,
            externalStatus,
            expirationDate: endDays === null ? null : inDays(endDays),
          }
          const turns = planTurnsAt(sub, now)
          const at = new Date(now.getTime() + later)
          if (turns === null || at.getTime() < turns)
            expect(isPlanActive(sub, at)).toBe(isPlanActive(sub, now))
          if (turns !== null) {
            expect(turns).toBeGreaterThan(now.getTime())
            expect(isPlanActive(sub, new Date(turns))).not.toBe(isPlanActive(sub, now))
          }
        },
      ),
      { numRuns: 500 },
    )
  })

  it('is the trial end, the paid period end plus the grace, or never', () => {
    expect(planTurnsAt({ level: 'TRIAL', externalStatus: 'trialing', expirationDate: inDays(3) }, now)).toBe(
      Date.parse(inDays(3)),
    )
    expect(planTurnsAt({ level: 'BASIC', externalStatus: 'active', expirationDate: inDays(3) }, now)).toBe(
      Date.parse(inDays(5)),
    )
    expect(
      planTurnsAt({ level: 'BASIC', externalStatus: 'canceled', expirationDate: inDays(3) }, now),
    ).toBeNull()
    expect(planTurnsAt(initialSubscription('selfhosted', 14, now), now)).toBeNull()
  })
})
