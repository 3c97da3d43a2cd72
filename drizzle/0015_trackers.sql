CREATE TABLE `tracker_issues` (
	`feature_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`provider` text NOT NULL,
	`project` text NOT NULL,
	`issue_id` text NOT NULL,
	`key` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`labels` text NOT NULL,
	`state` text NOT NULL,
	`issue_updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tracker_issues_issue_uq` ON `tracker_issues` (`project_id`,`provider`,`project`,`issue_id`);--> statement-breakpoint
ALTER TABLE `features` ADD `issue` text;--> statement-breakpoint
ALTER TABLE `github_links` ADD `provider` text DEFAULT 'github' NOT NULL;--> statement-breakpoint
ALTER TABLE `github_links` ADD `url` text;--> statement-breakpoint
ALTER TABLE `github_links` ADD `settings` text;--> statement-breakpoint
ALTER TABLE `github_links` ADD `token_expires_at` text;--> statement-breakpoint
ALTER TABLE `github_outbox` ADD `provider` text DEFAULT 'github' NOT NULL;--> statement-breakpoint
UPDATE `features` SET `issue` = json_object('provider', 'github', 'key', '#' || json_extract(`github`, '$.number'), 'url', json_extract(`github`, '$.url'), 'state', json_extract(`github`, '$.state'), 'status', json(NULL)) WHERE `github` IS NOT NULL;
