/**
 * Billing rules (SPEC §2 subscription page, §5 editor count, §9 prices), pure: no Stripe, no
 * database. The Stripe model turns provider objects into `StripeSubscriptionFacts` and this
 * module decides what the workspace's subscription becomes.
 */
import { z } from 'zod'
import type { PlanLevel } from '~/features/map/plan'
import { text } from '~/lib/validation'

export const PAID_PLANS = ['basic', 'pro'] as const
export type PaidPlan = (typeof PAID_PLANS)[number]

/** A sanity bound, far above any team that would self-serve a plan. */
export const MAX_EDITORS = 10_000

export const BILLING_TEXT = {
  ownerOnly: 'Only an owner of the workspace can change the workspace subscription. Please contact an owner.',
  atLeastOne: 'At least one editor is required',
  atLeast: (n: number) => `Need to have at least ${n} editors.`,
  notConfigured: 'Billing is not configured on this server.',
  noPaidPlan: 'The workspace has no paid plan to change. Please go to checkout first.',
  alreadyPaid: 'The workspace already has a paid plan. Change it on the plan page instead.',
} as const

/**
 * The editor count of the plan form: at least one, and not below the editors the workspace
 * already has. One schema for the page (strings) and the API (numbers).
 */
export function editorCountSchema(currentEditors: number) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v),
    z
      .number({ error: BILLING_TEXT.atLeastOne })
      .int('Must be an integer.')
      .min(1, BILLING_TEXT.atLeastOne)
      .min(currentEditors, BILLING_TEXT.atLeast(currentEditors))
      .max(MAX_EDITORS, `Maximum ${MAX_EDITORS} editors.`),
  )
}

export function checkoutSchema(currentEditors: number) {
  return z.object({
    plan: z.enum(PAID_PLANS, { error: 'Choose a plan.' }),
    quantity: editorCountSchema(currentEditors),
  })
}

/** `cancel` ends the plan at the end of the paid period; it needs no editor count. */
export function planChangeSchema(currentEditors: number) {
  return z.discriminatedUnion(
    'plan',
    [
      z.object({ plan: z.literal('cancel'), quantity: z.unknown().optional() }),
      z.object({ plan: z.enum(PAID_PLANS), quantity: editorCountSchema(currentEditors) }),
    ],
    { error: 'Choose a plan.' },
  )
}

export const billingInfoSchema = z.object({
  externalBillingEmail: text('Required.').trim().pipe(z.email('Invalid email address')),
  euVat: z.string().trim().max(200, 'Maximum 200 characters.').default(''),
})

export function totalPrice(pricePerEditor: number, editors: number): number {
  return Math.round(pricePerEditor * editors * 100) / 100
}

/** What the model reads off a Stripe subscription (period fields differ between API versions). */
export type StripeSubscriptionFacts = {
  status: string
  priceId: string | null
  quantity: number
  periodStart: number | null
  periodEnd: number | null
  cancelAtPeriodEnd: boolean
  endedAt: number | null
}

export type SubscriptionUpdate = {
  level: PlanLevel
  externalStatus: string
  numberOfEditors: number
  fromDate: string
  expirationDate: string | null
  cancelAtPeriodEnd: boolean
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

/** The workspace subscription that follows a Stripe subscription. */
export function subscriptionFromStripe(
  facts: StripeSubscriptionFacts,
  prices: { basic?: string; pro?: string },
  now: Date,
): SubscriptionUpdate {
  const level: PlanLevel = facts.priceId && facts.priceId === prices.pro ? 'PRO' : 'BASIC'
  const ended = facts.status === 'canceled' ? (facts.endedAt ?? Math.floor(now.getTime() / 1000)) : null
  const end = ended ?? facts.periodEnd
  return {
    level,
    externalStatus: facts.status,
    numberOfEditors: Math.max(1, facts.quantity),
    fromDate: facts.periodStart ? iso(facts.periodStart) : now.toISOString(),
    expirationDate: end ? iso(end) : null,
    cancelAtPeriodEnd: facts.status !== 'canceled' && facts.cancelAtPeriodEnd,
  }
}
