import { index, integer, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core'
import { now, bool } from './columns'
import { workspaceId } from './workspaces'

// The story map: projects and their cards, comments, personas and tags.
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
    /** Its GitHub issue (CONTRACT §13) as JSON `{"number","url","state"}`, or null; sync state is in tracker_issues. */
    github: text('github'),
    /** Its tracker issue (CONTRACT §14) as JSON `{"provider","key","url","state","status"}`, or null. */
    issue: text('issue'),
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
