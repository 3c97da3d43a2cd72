// GitLab and Jira issues of linked features (CONTRACT §14, ADR 38); links, outbox and log are
// the tables of github.ts, shared by every provider.
import { sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

/**
 * Each GitLab- or Jira-linked feature's issue and what both sides last agreed on (title, the
 * description above the footer, labels lower-cased and sorted as JSON, state), as github_issues.
 */
export const trackerIssues = sqliteTable(
  'tracker_issues',
  {
    featureId: text('feature_id').primaryKey(),
    projectId: text('project_id').notNull(),
    provider: text('provider').notNull(),
    /** GitLab's project path or Jira's project key the issue is in. */
    project: text('project').notNull(),
    /** GitLab's iid, Jira's issue id. */
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
