import { eq } from 'drizzle-orm'
import type Stripe from 'stripe'
import { getDb } from '~/lib/db/db.server'
import { processedEvents, subscriptions, workspaces } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import { getEnv } from '~/lib/env.server'
import { logger } from '~/lib/logger.server'
import { getStripe } from './stripe.server'
import { applyStripeSubscription } from './billing.server'

/**
 * POST /v1/subscription/webhook. The signature is checked first; each event id is applied at
 * most once (Stripe retries deliveries), and an event older than the last one applied to a
 * subscription is ignored (deliveries can arrive out of order). Unknown events are ignored.
 */
export async function handleStripeWebhook(payload: string, signature: string | null, now = new Date()) {
  const env = getEnv()
  if (env.APP_MODE !== 'hosted') throw refuse.notFound()
  const stripe = await getStripe()
  if (!env.STRIPE_WEBHOOK_SECRET)
    throw refuse.unavailable('billing_unconfigured', 'Webhooks are not configured.')
  let event: Stripe.Event
  try {
    event = stripe.webhooks.constructEvent(payload, signature ?? '', env.STRIPE_WEBHOOK_SECRET)
  } catch {
    throw refuse.invalid('signature_invalid', 'The webhook signature is invalid.')
  }
  const db = getDb()
  if (
    db.select({ id: processedEvents.id }).from(processedEvents).where(eq(processedEvents.id, event.id)).get()
  ) {
    return { received: true, applied: false }
  }
  const target = await resolveEvent(stripe, event)
  const applied = db.transaction(
    (tx) => {
      const inserted = tx.insert(processedEvents).values({ id: event.id }).onConflictDoNothing().run()
      if (inserted.changes === 0 || !target) return false
      const row = findSubscriptionRow(tx, target)
      if (!row || event.created < row.stripeEventAt) return false
      if (target.kind === 'subscription') {
        applyStripeSubscription(tx, row.id, target.subscription, event.created, now)
        if (target.customerId) {
          tx.update(workspaces)
            .set({ stripeCustomerId: target.customerId })
            .where(eq(workspaces.id, row.workspaceId))
            .run()
        }
      } else if (row.stripeSubscriptionId === target.subscriptionId && row.externalStatus === 'active') {
        tx.update(subscriptions)
          .set({ externalStatus: 'past_due', stripeEventAt: event.created, updatedAt: now.toISOString() })
          .where(eq(subscriptions.id, row.id))
          .run()
      } else {
        return false
      }
      return true
    },
    { behavior: 'immediate' },
  )
  if (!applied) logger.info({ eventId: event.id, type: event.type }, 'stripe event recorded without change')
  return { received: true, applied }
}

type Target =
  | {
      kind: 'subscription'
      subscription: Stripe.Subscription
      workspaceId: string | null
      customerId: string | null
      /** A completed checkout replaces whatever subscription the workspace had before. */
      fromCheckout: boolean
    }
  | { kind: 'payment_failed'; subscriptionId: string }

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null)

async function resolveEvent(stripe: Stripe, event: Stripe.Event): Promise<Target | null> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object
      const subscriptionId = idOf(session.subscription)
      if (session.mode !== 'subscription' || !subscriptionId) return null
      const subscription =
        typeof session.subscription === 'object' && session.subscription
          ? session.subscription
          : await stripe.subscriptions.retrieve(subscriptionId)
      return {
        kind: 'subscription',
        subscription,
        workspaceId: session.client_reference_id ?? subscription.metadata?.workspaceId ?? null,
        customerId: idOf(session.customer),
        fromCheckout: true,
      }
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object
      return {
        kind: 'subscription',
        subscription,
        workspaceId: subscription.metadata?.workspaceId ?? null,
        customerId: null,
        fromCheckout: false,
      }
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object as Stripe.Invoice & { subscription?: string | { id: string } | null }
      const subscriptionId =
        idOf(invoice.subscription) ?? idOf(invoice.parent?.subscription_details?.subscription)
      return subscriptionId ? { kind: 'payment_failed', subscriptionId } : null
    }
    default:
      return null
  }
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>['transaction']>[0]>[0]

/**
 * The workspace subscription an event is about: by Stripe subscription id, else by workspace
 * (metadata or customer) while that workspace has no other Stripe subscription, so a late event
 * about a replaced subscription cannot overwrite the new one.
 */
function findSubscriptionRow(tx: Tx, target: Target) {
  const subscriptionId = target.kind === 'subscription' ? target.subscription.id : target.subscriptionId
  const bySubscription = tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, subscriptionId))
    .get()
  if (bySubscription || target.kind !== 'subscription') return bySubscription
  const workspaceId = target.workspaceId ?? workspaceOfCustomer(tx, idOf(target.subscription.customer))
  if (!workspaceId) return undefined
  const row = tx.select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId)).get()
  if (row?.stripeSubscriptionId && !target.fromCheckout) return undefined
  return row
}

function workspaceOfCustomer(tx: Tx, customerId: string | null) {
  if (!customerId) return null
  return (
    tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.stripeCustomerId, customerId)).get()
      ?.id ?? null
  )
}
