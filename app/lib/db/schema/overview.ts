import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { projects } from './board'
import { members } from './workspaces'

// The whole map at a glance (CONTRACT §15): each member's own view of each project.

/**
 * What a member folded and the zoom they chose on a project's board, the same on every device.
 * Never a change to the map: no event, no version, no undo step. Ids are kept as given; ones
 * that no longer exist are left out when the view is read.
 */
export const memberProjectViews = sqliteTable(
  'member_project_views',
  {
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** JSON array of workflow (goal) ids. */
    collapsedWorkflows: text('collapsed_workflows').notNull().default('[]'),
    /** JSON array of milestone (release) ids. */
    collapsedMilestones: text('collapsed_milestones').notNull().default('[]'),
    /** 100, 75, 50 or 25. */
    zoom: integer('zoom').notNull().default(100),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.projectId] })],
)
