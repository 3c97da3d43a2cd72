CREATE TABLE `github_issues` (
	`feature_id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`repository` text NOT NULL,
	`number` integer NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`labels` text NOT NULL,
	`state` text NOT NULL,
	`issue_updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `github_issues_number_uq` ON `github_issues` (`project_id`,`repository`,`number`);--> statement-breakpoint
CREATE TABLE `github_links` (
	`project_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`repository` text NOT NULL,
	`token_cipher` text NOT NULL,
	`webhook_secret` text NOT NULL,
	`linked_at` text NOT NULL,
	`linked_by` text NOT NULL,
	`linked_by_name` text NOT NULL,
	`status` text DEFAULT 'ok' NOT NULL,
	`error` text,
	`last_sync_at` text,
	`etag` text,
	`since` text,
	`retry_at` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `github_links_workspace_idx` ON `github_links` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `github_log` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`at` text NOT NULL,
	`direction` text NOT NULL,
	`feature_id` text,
	`issue` integer,
	`action` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `github_log_project_idx` ON `github_log` (`project_id`,`seq`);--> statement-breakpoint
CREATE TABLE `github_outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` text NOT NULL,
	`feature_id` text NOT NULL,
	`fields` text NOT NULL,
	`created_at` text NOT NULL,
	`attempt` integer DEFAULT 0 NOT NULL,
	`next_at` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `github_outbox_project_idx` ON `github_outbox` (`project_id`,`seq`);--> statement-breakpoint
ALTER TABLE `features` ADD `github` text;