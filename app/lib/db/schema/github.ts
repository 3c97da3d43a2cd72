// The trackers' connector (CONTRACT §13, §14, ADR 26, ADR 38): a project's link to its tracker,
// the push outbox and the sync log, shared by every provider (the names are §13's, from before
// GitLab and Jira). Each linked feature's last synced state is in tracker_issues (trackers.ts).
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { projects } from './board'
import { workspaceId } from './workspaces'

/**
 * One repository per project. The token and the webhook secret are kept encrypted (AES-256-GCM,
 * key derived from SESSION_SECRET); `etag` and `since` make the next poll a conditional request; `retryAt` holds
 * every call back while GitHub's rate limit says so.
 */
export const githubLinks = sqliteTable(
  'github_links',
  {
    projectId: text('project_id')
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    workspaceId: workspaceId(),
    /** The tracker (CONTRACT §14): one link per project, whichever it is (ADR 38). */
    provider: text('provider', { enum: ['github', 'gitlab', 'jira'] })
      .notNull()
      .default('github'),
    /** GitHub: `owner/name`; GitLab: the project's full path; Jira: the project key. */
    repository: text('repository').notNull(),
    /** GitLab's or Jira's base URL (null for GitHub, which the server configures). */
    url: text('url'),
    /** What the provider found when linking (Jira: e-mail, issue type, story-points field; GitLab: project id), JSON. */
    settings: text('settings'),
    tokenExpiresAt: text('token_expires_at'),
    tokenCipher: text('token_cipher').notNull(),
    webhookSecretCipher: text('webhook_secret_cipher').notNull(),
    linkedAt: text('linked_at').notNull(),
    linkedBy: text('linked_by').notNull(),
    linkedByName: text('linked_by_name').notNull(),
    status: text('status', {
      enum: [
        'ok',
        'token_invalid',
        'repository_missing',
        'project_missing',
        'rate_limited',
        'unreachable',
        'token_expiring',
      ],
    })
      .notNull()
      .default('ok'),
    error: text('error'),
    lastSyncAt: text('last_sync_at'),
    etag: text('etag'),
    since: text('since'),
    retryAt: text('retry_at'),
  },
  (t) => [index('github_links_workspace_idx').on(t.workspaceId)],
)

/**
 * Pushes waiting for a tracker: one row per change of a linked feature, written in the change's
 * own transaction (`fields`: a JSON list of the feature's changed fields). The worker sends a
 * feature's rows in order, together, with the feature as it is then.
 */
export const githubOutbox = sqliteTable(
  'github_outbox',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    featureId: text('feature_id').notNull(),
    /** The tracker of the issue it goes to (the connector's one worker sends every provider's). */
    provider: text('provider').notNull().default('github'),
    fields: text('fields').notNull(),
    createdAt: text('created_at').notNull(),
    attempt: integer('attempt').notNull().default(0),
    nextAt: text('next_at').notNull(),
  },
  (t) => [index('github_outbox_project_idx').on(t.projectId, t.seq)],
)

/** The last sync operations of each project (the API lists 50). */
export const githubLog = sqliteTable(
  'github_log',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    at: text('at').notNull(),
    direction: text('direction', { enum: ['push', 'pull'] }).notNull(),
    featureId: text('feature_id'),
    issue: integer('issue'),
    action: text('action').notNull(),
    status: text('status', { enum: ['ok', 'retrying', 'failed'] }).notNull(),
    error: text('error'),
  },
  (t) => [index('github_log_project_idx').on(t.projectId, t.seq)],
)
