import { index, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { now, bool } from './columns'

// Accounts and how they sign in: sessions, e-mail keys, single sign-on identities.
export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  emailConfirmed: bool('email_confirmed').notNull().default(false),
  emailConfirmationPending: bool('email_confirmation_pending').notNull().default(false),
  emailConfirmationSentTo: text('email_confirmation_sent_to').notNull().default(''),
  /** The colour theme chosen in the account menu (CONTRACT §12). */
  theme: text('theme', { enum: ['system', 'light', 'dark'] })
    .notNull()
    .default('system'),
  createdAt: text('created_at').notNull().default(now),
})

/** Server-side sessions; the cookie carries a random token whose SHA-256 is the id. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull().default(now),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('sessions_account_idx').on(t.accountId), index('sessions_expires_idx').on(t.expiresAt)],
)

/** Single-use e-mail verification and password reset keys, stored hashed. */
export const accountKeys = sqliteTable(
  'account_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    kind: text('kind', { enum: ['verify', 'reset'] }).notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: text('created_at').notNull().default(now),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('account_keys_account_idx').on(t.accountId, t.kind)],
)

/**
 * Single sign-on (CONTRACT §11): an identity at the OpenID provider (issuer + `sub`) linked to an
 * account, one per account and issuer. `email` is the address the provider gave at the last sign-in.
 * Accounts made by single sign-on have no password: their `password_hash` is '' (never a valid hash).
 */
export const oidcIdentities = sqliteTable(
  'oidc_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.subject] }),
    uniqueIndex('oidc_identities_account_issuer_uq').on(t.accountId, t.issuer),
  ],
)
