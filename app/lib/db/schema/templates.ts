import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { members, workspaces } from './workspaces'

// Map templates (CONTRACT §16): the built-in ones live in the code; a workspace's own live here.

/** A map saved as a template by an OWNER or ADMIN: the §8 export JSON of the map, without comments. */
export const mapTemplates = sqliteTable(
  'map_templates',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** The §8 JSON (`format: "storymap"`), comments left out. */
    map: text('map').notNull(),
    /** How many goals and features the map holds (for the template list without parsing it). */
    goals: integer('goals').notNull(),
    features: integer('features').notNull(),
    createdAt: text('created_at').notNull(),
    createdBy: text('created_by').references(() => members.id, { onDelete: 'set null' }),
  },
  (t) => [index('map_templates_workspace_idx').on(t.workspaceId)],
)
