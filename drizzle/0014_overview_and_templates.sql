CREATE TABLE `member_project_views` (
	`member_id` text NOT NULL,
	`project_id` text NOT NULL,
	`collapsed_workflows` text DEFAULT '[]' NOT NULL,
	`collapsed_milestones` text DEFAULT '[]' NOT NULL,
	`zoom` integer DEFAULT 100 NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`member_id`, `project_id`),
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `map_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`map` text NOT NULL,
	`goals` integer NOT NULL,
	`features` integer NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `map_templates_workspace_idx` ON `map_templates` (`workspace_id`);