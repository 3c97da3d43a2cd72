CREATE TABLE `trash` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`cards` integer NOT NULL,
	`version` integer NOT NULL,
	`deleted_at` text NOT NULL,
	`deleted_by` text NOT NULL,
	`deleted_by_name` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `trash_workspace_idx` ON `trash` (`workspace_id`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `trash_project_idx` ON `trash` (`project_id`,`deleted_at`);--> statement-breakpoint
ALTER TABLE `project_changes` ADD `summary` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `project_changes` ADD `undo_of` integer;--> statement-breakpoint
ALTER TABLE `project_changes` ADD `redo_of` integer;--> statement-breakpoint
ALTER TABLE `project_changes` ADD `undone_by` integer;--> statement-breakpoint
ALTER TABLE `project_changes` ADD `redone_by` integer;--> statement-breakpoint
ALTER TABLE `project_changes` ADD `purged` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `project_changes_member_idx` ON `project_changes` (`project_id`,`member_id`,`version`);