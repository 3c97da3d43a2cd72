import { canEditLevel, type Level } from './permissions'

/** Plan state of a workspace's subscription (SPEC §4, §6, §9). Pure: the caller passes "now". */
export const PLAN_LEVELS = ['TRIAL', 'BASIC', 'PRO'] as const
export type PlanLevel = (typeof PLAN_LEVELS)[number]

export const PLAN_NAMES: Record<PlanLevel, string> = { TRIAL: 'Trial', BASIC: 'Team', PRO: 'Business' }

export type SubscriptionState = {
  level: PlanLevel
  externalStatus: string
  expirationDate: string | null
}

const DAY = 24 * 60 * 60 * 1000
/** A paid period may end a little before Stripe's renewal event arrives. */
const RENEWAL_GRACE = 2 * DAY

export function isPlanActive(sub: SubscriptionState, now: Date): boolean {
  const end = sub.expirationDate ? Date.parse(sub.expirationDate) : null
  switch (sub.externalStatus) {
    case 'trialing':
      return end === null || now.getTime() < end
    case 'active':
      return end === null || now.getTime() < end + RENEWAL_GRACE
    default:
      return false
  }
}

/**
 * When isPlanActive's answer may next change with time alone (no write to the subscription):
 * the end of a trial, the end of a paid period's grace; null when it never will. A live stream
 * checks its member's access again then (app/features/live/live-access.server.ts).
 */
export function planTurnsAt(sub: SubscriptionState, now: Date): number | null {
  const end = sub.expirationDate ? Date.parse(sub.expirationDate) : null
  if (end === null) return null
  const at =
    sub.externalStatus === 'trialing' ? end : sub.externalStatus === 'active' ? end + RENEWAL_GRACE : null
  return at !== null && at > now.getTime() ? at : null
}

const STATUS_TEXT: Record<string, string> = {
  incomplete: 'Inactive (please pay initial payment)',
  incomplete_expired: 'Inactive (initial payment not received)',
  active: 'Active (subscribed to a paid monthly plan)',
  past_due: 'Inactive (payment is past due)',
  canceled: 'Inactive (canceled by user or due to unpaid invoice)',
}

export function statusText(sub: SubscriptionState, now: Date): string {
  if (sub.externalStatus === 'trialing')
    return isPlanActive(sub, now) ? 'Active (trial)' : 'Inactive (trial ended)'
  return STATUS_TEXT[sub.externalStatus] ?? sub.externalStatus
}

/** Whole days left until the plan ends, rounded; null when it never ends. */
export function daysLeft(sub: SubscriptionState, now: Date): number | null {
  if (!sub.expirationDate) return null
  return Math.max(0, Math.round((Date.parse(sub.expirationDate) - now.getTime()) / DAY))
}

/** The trial banner shows when fewer than 6 days remain of an active trial. */
export function trialBanner(sub: SubscriptionState, now: Date): string | null {
  if (sub.externalStatus !== 'trialing' || !isPlanActive(sub, now)) return null
  const days = daysLeft(sub, now)
  if (days === null || days >= 6) return null
  return days === 0 ? 'Your trial ends today.' : `Your trial ends in ${days} days.`
}

/** SPEC §6: the share link exists only on an active trial or paid plan with sharing allowed. */
export function canShareExternally(
  sub: SubscriptionState,
  allowExternalSharing: boolean,
  now: Date,
): boolean {
  return allowExternalSharing && isPlanActive(sub, now) && PLAN_LEVELS.includes(sub.level)
}

/** The plan-change page asks for a new paid sign-up in these states. */
export function needsNewPaidSignup(externalStatus: string): boolean {
  return ['incomplete', 'incomplete_expired', 'trialing', 'canceled'].includes(externalStatus)
}

export function initialSubscription(
  mode: 'selfhosted' | 'hosted',
  trialDays: number,
  now: Date,
): SubscriptionState & { fromDate: string } {
  const fromDate = now.toISOString()
  if (mode === 'selfhosted') return { level: 'PRO', externalStatus: 'active', expirationDate: null, fromDate }
  return {
    level: 'TRIAL',
    externalStatus: 'trialing',
    expirationDate: new Date(now.getTime() + trialDays * DAY).toISOString(),
    fromDate,
  }
}

// ---- seats: a paid plan's editors (SPEC §5)

export function editorCount(levels: readonly Level[]): number {
  return levels.filter(canEditLevel).length
}

/** A paid plan limits editors to the seats paid for; trials and self-hosted plans do not. */
export function seatLimit(
  sub: { level: PlanLevel; numberOfEditors: number },
  mode: 'selfhosted' | 'hosted',
): number | null {
  if (mode === 'selfhosted' || sub.level === 'TRIAL') return null
  return sub.numberOfEditors
}

/** Why a change that needs more editors than the plan pays for is refused. */
export const SEATS_FULL_TEXT = (limit: number) =>
  `The plan of this workspace pays for ${limit} ${limit === 1 ? 'editor' : 'editors'} and every seat is taken. An owner can add editors on the plan page.`

/** Refusal text when `adding` more editors would exceed the paid seats, else null. */
export function seatRefusal(limit: number | null, editorsNow: number, adding: number): string | null {
  if (limit === null || adding <= 0) return null
  return editorsNow + adding > limit ? SEATS_FULL_TEXT(limit) : null
}
