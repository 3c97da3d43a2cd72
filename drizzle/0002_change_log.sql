CREATE TABLE `project_changes` (
	`project_id` text NOT NULL,
	`version` integer NOT NULL,
	`workspace_id` text NOT NULL,
	`at` text NOT NULL,
	`member_id` text NOT NULL,
	`member_name` text NOT NULL,
	`command` text NOT NULL,
	`event` text NOT NULL,
	`prior` text NOT NULL,
	PRIMARY KEY(`project_id`, `version`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `project_changes_at_idx` ON `project_changes` (`at`);--> statement-breakpoint
CREATE INDEX `project_changes_workspace_idx` ON `project_changes` (`workspace_id`);