// The issues of linked features on every tracker (CONTRACT §13, §14, ADR 38); links, outbox and
// log are the tables of github.ts, shared by every provider.
import { sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * Each linked feature's issue and what both sides last agreed on (title, the description above
 * the footer, labels lower-cased and sorted as JSON, state): a field that differs from it on one
 * side changed there since the last sync. No foreign key to the feature: a deleted feature
 * restored from the trash finds its issue again. GitHub's rows came from github_issues (0016).
 */
export const trackerIssues = sqliteTable(
  'tracker_issues',
  {
    featureId: text('feature_id').primaryKey(),
    projectId: text('project_id').notNull(),
    provider: text('provider').notNull(),
    /** GitHub's `owner/name`, GitLab's project path or Jira's project key the issue is in. */
    project: text('project').notNull(),
    /** GitHub's issue number, GitLab's iid, Jira's issue id. */
    issueId: text('issue_id').notNull(),
    key: text('key').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    labels: text('labels').notNull(),
    state: text('state').notNull(),
    issueUpdatedAt: text('issue_updated_at').notNull(),
  },
  (t) => [uniqueIndex('tracker_issues_issue_uq').on(t.projectId, t.provider, t.project, t.issueId)],
)
