import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { accounts } from './accounts'
import { features } from './board'
import { members, workspaces } from './workspaces'

// Mentions and notifications (CONTRACT §12).

/**
 * Account-wide e-mail choices (a row only once one is changed: no row means both on) and the
 * secret that signs the account's unsubscribe links.
 */
export const notificationSettings = sqliteTable('notification_settings', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  mentions: integer('mentions', { mode: 'boolean' }).notNull().default(true),
  watching: integer('watching', { mode: 'boolean' }).notNull().default(true),
  secret: text('secret').notNull(),
})

/**
 * Who watches a feature, as chosen: `watching` true (Watch, or the default for a commenter) or
 * false (Unwatch). The feature's creator watches it without a row until they choose Unwatch.
 */
export const featureWatches = sqliteTable(
  'feature_watches',
  {
    featureId: text('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    watching: integer('watching', { mode: 'boolean' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.featureId, t.memberId] }),
    index('feature_watches_member_idx').on(t.memberId),
  ],
)

/**
 * The notification outbox: one row per comment per member to tell, appended in the comment's
 * transaction. A worker sends a member's pending rows of one feature as one e-mail, at most one
 * per member and feature per window (`sent_at` says when each went).
 */
export const notificationQueue = sqliteTable(
  'notification_queue',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    featureId: text('feature_id').notNull(),
    commentId: text('comment_id').notNull(),
    /** Whether the comment mentions the member, and whether the member watches the feature. */
    mentioned: integer('mentioned', { mode: 'boolean' }).notNull(),
    watching: integer('watching', { mode: 'boolean' }).notNull(),
    authorName: text('author_name').notNull(),
    /** The comment's text and the feature's title when it was written (the comment may go later). */
    post: text('post').notNull(),
    featureTitle: text('feature_title').notNull(),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
  },
  (t) => [
    index('notification_queue_pending_idx').on(t.sentAt, t.memberId, t.featureId),
    index('notification_queue_member_feature_idx').on(t.memberId, t.featureId, t.sentAt),
    index('notification_queue_workspace_idx').on(t.workspaceId),
  ],
)
