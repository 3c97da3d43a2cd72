CREATE TABLE `feature_watches` (
	`feature_id` text NOT NULL,
	`member_id` text NOT NULL,
	`watching` integer NOT NULL,
	PRIMARY KEY(`feature_id`, `member_id`),
	FOREIGN KEY (`feature_id`) REFERENCES `features`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `feature_watches_member_idx` ON `feature_watches` (`member_id`);--> statement-breakpoint
CREATE TABLE `notification_queue` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`member_id` text NOT NULL,
	`feature_id` text NOT NULL,
	`comment_id` text NOT NULL,
	`mentioned` integer NOT NULL,
	`watching` integer NOT NULL,
	`author_name` text NOT NULL,
	`post` text NOT NULL,
	`feature_title` text NOT NULL,
	`created_at` text NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_queue_pending_idx` ON `notification_queue` (`sent_at`,`member_id`,`feature_id`);--> statement-breakpoint
CREATE INDEX `notification_queue_member_feature_idx` ON `notification_queue` (`member_id`,`feature_id`,`sent_at`);--> statement-breakpoint
CREATE INDEX `notification_queue_workspace_idx` ON `notification_queue` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `notification_settings` (
	`account_id` text PRIMARY KEY NOT NULL,
	`mentions` integer DEFAULT true NOT NULL,
	`watching` integer DEFAULT true NOT NULL,
	`secret` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
