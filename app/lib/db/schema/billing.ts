import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { now, bool } from './columns'
import { workspaceId } from './workspaces'

// A workspace's plan (SPEC §4, §9) and the Stripe events already applied.
export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().unique(),
    level: text('level', { enum: ['TRIAL', 'BASIC', 'PRO'] }).notNull(),
    externalStatus: text('external_status').notNull(),
    numberOfEditors: integer('number_of_editors').notNull().default(1),
    fromDate: text('from_date').notNull(),
    /** null: no end (self-hosted). */
    expirationDate: text('expiration_date'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    /** The paid plan ends at expirationDate instead of renewing (a cancellation via Stripe). */
    cancelAtPeriodEnd: bool('cancel_at_period_end').notNull().default(false),
    /** `created` (Unix seconds) of the newest Stripe event applied; older events arriving late are ignored. */
    stripeEventAt: integer('stripe_event_at').notNull().default(0),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [index('subscriptions_stripe_subscription_idx').on(t.stripeSubscriptionId)],
)

/** Stripe event ids already applied, so a retried webhook changes nothing. */
export const processedEvents = sqliteTable('processed_events', {
  id: text('id').primaryKey(),
  processedAt: text('processed_at').notNull().default(now),
})
