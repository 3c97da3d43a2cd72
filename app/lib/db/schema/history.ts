import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { workspaceId } from './workspaces'

// The change log and the trash (ADR 10, ADR 12).
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
