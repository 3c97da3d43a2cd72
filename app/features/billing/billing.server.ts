import { and, eq, isNull } from 'drizzle-orm'
import type Stripe from 'stripe'
import { getDb, type Db } from '~/lib/db/db.server'
import { subscriptions, workspaces } from '~/lib/db/schema'
import { BILLING_TEXT, subscriptionFromStripe, type PaidPlan, type StripeSubscriptionFacts } from './billing'
import { refuse } from '~/lib/errors'
import { can } from '~/features/map/permissions'
import { needsNewPaidSignup, PLAN_NAMES, statusText } from '../map/plan'
import { getEnv } from '~/lib/env.server'
import { getStripe, stripeErrorMessage } from './stripe.server'
import {
  publicSubscription,
  publicWorkspace,
  type Subscription,
  type WorkspaceContext,
} from '~/features/workspaces/index.server'
import { countEditors } from '~/features/workspaces/index.server'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Billing exists only in hosted mode (self-hosted: 404) and only for an OWNER. */
export function requireBillingOwner(ctx: WorkspaceContext) {
  if (getEnv().APP_MODE !== 'hosted') throw refuse.notFound()
  if (!can(ctx, 'manageBilling')) throw refuse.forbidden(BILLING_TEXT.ownerOnly, 'owner_only')
}

/** How many members of the workspace count as editors now (the plan's quantity is at least this). */
export const workspaceEditorCount = (workspaceId: string) => countEditors(getDb(), workspaceId)

function priceOf(plan: PaidPlan): string {
  const env = getEnv()
  const price = plan === 'pro' ? env.STRIPE_PRICE_PRO : env.STRIPE_PRICE_BASIC
  if (!price) throw refuse.unavailable('billing_unconfigured', BILLING_TEXT.notConfigured)
  return price
}

/** Stripe failures become 502 with the provider's message (SPEC §8: the alert shows it). */
async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    const message = stripeErrorMessage(error)
    if (message === null) throw error
    throw refuse.upstream('payment_provider_error', message)
  }
}

/** One Stripe customer per workspace, created on first need and reused after. */
async function ensureCustomer(stripe: Stripe, ctx: WorkspaceContext): Promise<string> {
  if (ctx.workspace.stripeCustomerId) return ctx.workspace.stripeCustomerId
  const customer = await callStripe(() =>
    stripe.customers.create(
      {
        name: ctx.workspace.name,
        email: ctx.workspace.externalBillingEmail || ctx.account.email,
        metadata: { workspaceId: ctx.workspace.id, euVat: ctx.workspace.euVat },
      },
      // Two checkouts at once still make one customer.
      { idempotencyKey: `storymap-customer-${ctx.workspace.id}` },
    ),
  )
  const db = getDb()
  db.update(workspaces)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(workspaces.id, ctx.workspace.id), isNull(workspaces.stripeCustomerId)))
    .run()
  return db
    .select({ id: workspaces.stripeCustomerId })
    .from(workspaces)
    .where(eq(workspaces.id, ctx.workspace.id))
    .get()!.id!
}

/** A workspace without a running paid plan starts one through Stripe Checkout. */
export async function startCheckout(ctx: WorkspaceContext, input: { plan: PaidPlan; quantity: number }) {
  requireBillingOwner(ctx)
  if (ctx.subscription.level !== 'TRIAL' && !needsNewPaidSignup(ctx.subscription.externalStatus)) {
    throw refuse.conflict('already_subscribed', BILLING_TEXT.alreadyPaid)
  }
  const stripe = await getStripe()
  const price = priceOf(input.plan)
  const customer = await ensureCustomer(stripe, ctx)
  const baseUrl = getEnv().BASE_URL
  const session = await callStripe(() =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: ctx.workspace.id,
      line_items: [{ price, quantity: input.quantity }],
      subscription_data: { metadata: { workspaceId: ctx.workspace.id } },
      success_url: `${baseUrl}/account/success`,
      cancel_url: `${baseUrl}/account/cancel`,
    }),
  )
  if (!session.url)
    throw refuse.upstream('payment_provider_error', 'The payment provider gave no checkout address.')
  return { id: session.id, url: session.url }
}

export function stripeSubscriptionFacts(sub: Stripe.Subscription): StripeSubscriptionFacts {
  const item = sub.items?.data?.[0]
  // Before API version 2025-03-31 the period sat on the subscription; since then on its items.
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number }
  return {
    status: sub.status,
    priceId: item?.price?.id ?? null,
    quantity: item?.quantity ?? 1,
    periodStart: legacy.current_period_start ?? item?.current_period_start ?? null,
    periodEnd: legacy.current_period_end ?? item?.current_period_end ?? null,
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
    endedAt: sub.ended_at ?? null,
  }
}

/** Writes what a Stripe subscription says onto the workspace's subscription row. */
export function applyStripeSubscription(
  db: Tx | Db,
  subscriptionRowId: string,
  stripeSubscription: Stripe.Subscription,
  eventAt: number,
  now: Date,
): Subscription {
  const env = getEnv()
  const update = subscriptionFromStripe(
    stripeSubscriptionFacts(stripeSubscription),
    { basic: env.STRIPE_PRICE_BASIC, pro: env.STRIPE_PRICE_PRO },
    now,
  )
  return db
    .update(subscriptions)
    .set({
      ...update,
      stripeSubscriptionId: stripeSubscription.id,
      stripeEventAt: eventAt,
      updatedAt: now.toISOString(),
    })
    .where(eq(subscriptions.id, subscriptionRowId))
    .returning()
    .get()
}

/**
 * Changes the running paid plan: editor count or plan (prorated), or `cancel` at the end of
 * the paid period. The answer is applied at once; Stripe's webhook confirms it later.
 */
export async function changePlan(
  ctx: WorkspaceContext,
  input: { plan: PaidPlan | 'cancel'; quantity?: unknown },
) {
  requireBillingOwner(ctx)
  const subscriptionId = ctx.subscription.stripeSubscriptionId
  if (
    !subscriptionId ||
    ctx.subscription.level === 'TRIAL' ||
    needsNewPaidSignup(ctx.subscription.externalStatus)
  ) {
    throw refuse.conflict('no_paid_plan', BILLING_TEXT.noPaidPlan)
  }
  const stripe = await getStripe()
  let updated: Stripe.Subscription
  if (input.plan === 'cancel') {
    updated = await callStripe(() =>
      stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
    )
  } else {
    const price = priceOf(input.plan)
    const current = await callStripe(() => stripe.subscriptions.retrieve(subscriptionId))
    const itemId = current.items.data[0]?.id
    updated = await callStripe(() =>
      stripe.subscriptions.update(subscriptionId, {
        items: [
          itemId
            ? { id: itemId, price, quantity: input.quantity as number }
            : { price, quantity: input.quantity as number },
        ],
        proration_behavior: 'create_prorations',
        cancel_at_period_end: false,
      }),
    )
  }
  const now = new Date()
  const row = applyStripeSubscription(
    getDb(),
    ctx.subscription.id,
    updated,
    Math.floor(now.getTime() / 1000),
    now,
  )
  return publicSubscription(row)
}

/** Billing e-mail and EU VAT: kept on the workspace and sent to its Stripe customer. */
export async function updateBillingInfo(
  ctx: WorkspaceContext,
  input: { externalBillingEmail: string; euVat: string },
) {
  requireBillingOwner(ctx)
  const customerId = ctx.workspace.stripeCustomerId
  if (customerId) {
    const stripe = await getStripe()
    await callStripe(() =>
      stripe.customers.update(customerId, {
        email: input.externalBillingEmail,
        metadata: { euVat: input.euVat },
      }),
    )
  }
  const row = getDb()
    .update(workspaces)
    .set({ externalBillingEmail: input.externalBillingEmail, euVat: input.euVat })
    .where(eq(workspaces.id, ctx.workspace.id))
    .returning()
    .get()
  return publicWorkspace(row)
}

/** What the Plan section and the subscription page show. */
export function planOverview(ctx: WorkspaceContext, now = new Date()) {
  const env = getEnv()
  const sub = ctx.subscription
  return {
    level: sub.level,
    planName: PLAN_NAMES[sub.level],
    statusText: statusText(sub, now),
    active: ctx.planActive,
    numberOfEditors: sub.numberOfEditors,
    editors: countEditors(getDb(), ctx.workspace.id),
    expirationDate: sub.expirationDate,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    /** No running paid plan: the page offers checkout instead of a change. */
    needsCheckout:
      sub.level === 'TRIAL' || !sub.stripeSubscriptionId || needsNewPaidSignup(sub.externalStatus),
    prices: { basic: env.TEAM_PLAN_PRICE, pro: env.BUSINESS_PLAN_PRICE },
  }
}
