import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { now, bool } from './columns'
import { accounts } from './accounts'

// Workspaces, their members and invitations.
export const workspaces = sqliteTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull().unique(),
    createdAt: text('created_at').notNull().default(now),
    allowExternalSharing: bool('allow_external_sharing').notNull().default(true),
    euVat: text('eu_vat').notNull().default(''),
    externalBillingEmail: text('external_billing_email').notNull().default(''),
    stripeCustomerId: text('stripe_customer_id'),
  },
  (t) => [index('workspaces_stripe_customer_idx').on(t.stripeCustomerId)],
)

/** A workspace-owned row's `workspace_id`: deleted with its workspace. */
export const workspaceId = () =>
  text('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' })

export const members = sqliteTable(
  'members',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    level: text('level', { enum: ['VIEWER', 'EDITOR', 'ADMIN', 'OWNER'] }).notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('members_workspace_account_uq').on(t.workspaceId, t.accountId),
    index('members_account_idx').on(t.accountId),
  ],
)

export const invites = sqliteTable(
  'invites',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    email: text('email').notNull(),
    level: text('level', { enum: ['VIEWER', 'EDITOR', 'ADMIN', 'OWNER'] }).notNull(),
    codeHash: text('code_hash').notNull().unique(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    createdAt: text('created_at').notNull().default(now),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('invites_workspace_idx').on(t.workspaceId)],
)
