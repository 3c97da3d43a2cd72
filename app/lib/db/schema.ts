import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core'

// Times are ISO 8601 strings (UTC); ids are UUIDs chosen by the client for board entities.
const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`
const bool = (name: string) => integer(name, { mode: 'boolean' })

export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  emailConfirmed: bool('email_confirmed').notNull().default(false),
  emailConfirmationPending: bool('email_confirmation_pending').notNull().default(false),
  emailConfirmationSentTo: text('email_confirmation_sent_to').notNull().default(''),
  /** The colour theme chosen in the account menu (CONTRACT §12). */
  theme: text('theme', { enum: ['system', 'light', 'dark'] }).notNull().default('system'),
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

const workspaceId = () =>
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

/**
 * Personal API tokens (CONTRACT §10): a member's key to one workspace's /v1 API. Only the
 * secret's SHA-256 is kept. Deleting the member (removed, left, account deleted) revokes them.
 */
export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    secretHash: text('secret_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    workspaceId: workspaceId(),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull().default(now),
    expiresAt: text('expires_at'),
    lastUsedAt: text('last_used_at'),
  },
  (t) => [index('api_tokens_member_idx').on(t.memberId), index('api_tokens_workspace_idx').on(t.workspaceId)],
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

export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    externalLink: text('external_link').notNull().unique(),
    /** The project's own share-link switch; the workspace's allowExternalSharing is over it. */
    sharingEnabled: bool('sharing_enabled').notNull().default(true),
    createdAt: text('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    lastModified: text('last_modified').notNull(),
    lastModifiedByName: text('last_modified_by_name').notNull(),
  },
  (t) => [index('projects_workspace_idx').on(t.workspaceId, t.createdAt)],
)

const cardColumns = () => ({
  id: text('id').primaryKey(),
  workspaceId: workspaceId(),
  rank: text('rank').notNull(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  createdAt: text('created_at').notNull(),
  createdBy: text('created_by').notNull(),
  createdByName: text('created_by_name').notNull(),
  lastModified: text('last_modified').notNull(),
  lastModifiedByName: text('last_modified_by_name').notNull(),
  color: text('color').notNull().default(''),
  status: text('status', { enum: ['OPEN', 'CLOSED'] })
    .notNull()
    .default('OPEN'),
  annotations: text('annotations').notNull().default(''),
})

const projectId = () =>
  text('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' })

export const milestones = sqliteTable('milestones', { ...cardColumns(), projectId: projectId() }, (t) => [
  uniqueIndex('milestones_rank_uq').on(t.projectId, t.rank),
  index('milestones_workspace_idx').on(t.workspaceId),
])

export const workflows = sqliteTable('workflows', { ...cardColumns(), projectId: projectId() }, (t) => [
  uniqueIndex('workflows_rank_uq').on(t.projectId, t.rank),
  index('workflows_workspace_idx').on(t.workspaceId),
])

export const subWorkflows = sqliteTable(
  'subworkflows',
  {
    ...cardColumns(),
    /** Kept so a whole map loads with one query per table. */
    projectId: projectId(),
    workflowId: text('workflow_id')
      .notNull()
      .references((): AnySQLiteColumn => workflows.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('subworkflows_rank_uq').on(t.workflowId, t.rank),
    index('subworkflows_project_idx').on(t.projectId),
    index('subworkflows_workspace_idx').on(t.workspaceId),
  ],
)

export const features = sqliteTable(
  'features',
  {
    ...cardColumns(),
    projectId: projectId(),
    subWorkflowId: text('subworkflow_id')
      .notNull()
      .references(() => subWorkflows.id, { onDelete: 'cascade' }),
    milestoneId: text('milestone_id')
      .notNull()
      .references(() => milestones.id, { onDelete: 'cascade' }),
    estimate: integer('estimate').notNull().default(0),
    /** The project's tags on this feature, as a JSON array of tag ids (CONTRACT §12). */
    tagIds: text('tag_ids').notNull().default('[]'),
  },
  (t) => [
    uniqueIndex('features_rank_uq').on(t.subWorkflowId, t.milestoneId, t.rank),
    index('features_project_idx').on(t.projectId),
    index('features_milestone_idx').on(t.milestoneId),
    index('features_workspace_idx').on(t.workspaceId),
  ],
)

export const featureComments = sqliteTable(
  'feature_comments',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    featureId: text('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    projectId: projectId(),
    memberId: text('member_id').notNull(),
    post: text('post').notNull(),
    createdAt: text('created_at').notNull(),
    createdByName: text('created_by_name').notNull(),
    lastModified: text('last_modified').notNull(),
  },
  (t) => [
    index('feature_comments_feature_idx').on(t.featureId),
    index('feature_comments_project_idx').on(t.projectId),
    index('feature_comments_workspace_idx').on(t.workspaceId),
  ],
)

export const personas = sqliteTable(
  'personas',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    projectId: projectId(),
    avatar: text('avatar').notNull().default('avatar00'),
    name: text('name').notNull(),
    role: text('role').notNull().default(''),
    description: text('description').notNull().default(''),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('personas_project_idx').on(t.projectId, t.name),
    index('personas_workspace_idx').on(t.workspaceId),
  ],
)

export const workflowPersonas = sqliteTable(
  'workflow_personas',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    projectId: projectId(),
    personaId: text('persona_id')
      .notNull()
      .references(() => personas.id, { onDelete: 'cascade' }),
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('workflow_personas_uq').on(t.workflowId, t.personaId),
    index('workflow_personas_project_idx').on(t.projectId),
    index('workflow_personas_persona_idx').on(t.personaId),
    index('workflow_personas_workspace_idx').on(t.workspaceId),
  ],
)

/** A project's tags (CONTRACT §12): names unique per project ignoring case, one of SPEC's colours. */
export const tags = sqliteTable(
  'tags',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    projectId: projectId(),
    name: text('name').notNull(),
    color: text('color').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('tags_project_idx').on(t.projectId), index('tags_workspace_idx').on(t.workspaceId)],
)

/**
 * The change log (ADR 10): one row per committed write to a project, numbered from 1 without
 * gaps, written in the write's own transaction. `event` is the live `change` event's data as
 * sent; `prior` is the state every touched entity had before (null for a created one), which
 * undo and the trash read back. No foreign key on the project: its log outlives a delete.
 */
export const projectChanges = sqliteTable(
  'project_changes',
  {
    projectId: text('project_id').notNull(),
    version: integer('version').notNull(),
    workspaceId: workspaceId(),
    at: text('at').notNull(),
    memberId: text('member_id').notNull(),
    memberName: text('member_name').notNull(),
    /** The name of the API token the change was made with (CONTRACT §10), or null. */
    via: text('via'),
    /** The board command, as JSON. */
    command: text('command').notNull(),
    event: text('event').notNull(),
    prior: text('prior').notNull(),
    /** One English sentence for the activity feed (CONTRACT §7). */
    summary: text('summary').notNull().default(''),
    /** This change undid / redid the change of that version (undo stacks, ADR 12). */
    undoOf: integer('undo_of'),
    redoOf: integer('redo_of'),
    /** The version of the change that undid this one / redid this undo. */
    undoneBy: integer('undone_by'),
    redoneBy: integer('redone_by'),
    /** What it removed was deleted for good (trash purged): it can no longer be undone. */
    purged: integer('purged', { mode: 'boolean' }).notNull().default(false),
    /**
     * Not a step of its member's undo (or, on an undo row, redo): a project created, imported,
     * duplicated, deleted or restored (the trash handles those), or a step whose undo was refused
     * once (it is dropped so the next undo reaches the change before it).
     */
    undoSkipped: integer('undo_skipped', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.version] }),
    index('project_changes_at_idx').on(t.at),
    index('project_changes_workspace_idx').on(t.workspaceId),
    index('project_changes_member_idx').on(t.projectId, t.memberId, t.version),
  ],
)

/**
 * Deleted goals, activities, releases, features (per project) and projects (per workspace),
 * kept 30 days. The removed state itself is the `prior` of change `version` of the project's log.
 */
export const trash = sqliteTable(
  'trash',
  {
    /** The deleted entity's id. */
    id: text('id').primaryKey(),
    workspaceId: workspaceId(),
    projectId: text('project_id').notNull(),
    kind: text('kind', { enum: ['project', 'milestone', 'workflow', 'subWorkflow', 'feature'] }).notNull(),
    title: text('title').notNull(),
    cards: integer('cards').notNull(),
    version: integer('version').notNull(),
    deletedAt: text('deleted_at').notNull(),
    deletedBy: text('deleted_by').notNull(),
    deletedByName: text('deleted_by_name').notNull(),
  },
  (t) => [
    index('trash_workspace_idx').on(t.workspaceId, t.deletedAt),
    index('trash_project_idx').on(t.projectId, t.deletedAt),
  ],
)

/** Stripe event ids already applied, so a retried webhook changes nothing. */
export const processedEvents = sqliteTable('processed_events', {
  id: text('id').primaryKey(),
  processedAt: text('processed_at').notNull().default(now),
})

export * from './schema-webhooks'
export * from './schema-notifications'
