-- GitHub runs on the trackers' connector (ADR 38): what each GitHub-linked feature and its issue
-- last agreed on moves to tracker_issues (the number is the issue's id, `#n` its key); the one
-- outbox's GitHub rows (provider 'github') stay as they are, for the connector's worker to send.
INSERT OR IGNORE INTO `tracker_issues` (`feature_id`, `project_id`, `provider`, `project`, `issue_id`, `key`, `title`, `body`, `labels`, `state`, `issue_updated_at`)
SELECT `feature_id`, `project_id`, 'github', `repository`, CAST(`number` AS text), '#' || `number`, `title`, `body`, `labels`, `state`, `issue_updated_at` FROM `github_issues`;--> statement-breakpoint
UPDATE `github_links` SET `status` = 'project_missing' WHERE `status` = 'repository_missing';--> statement-breakpoint
DROP TABLE `github_issues`;
