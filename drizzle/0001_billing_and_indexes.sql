ALTER TABLE `subscriptions` ADD `cancel_at_period_end` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `stripe_event_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `subscriptions_stripe_subscription_idx` ON `subscriptions` (`stripe_subscription_id`);--> statement-breakpoint
CREATE INDEX `feature_comments_workspace_idx` ON `feature_comments` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `features_workspace_idx` ON `features` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `milestones_workspace_idx` ON `milestones` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `personas_workspace_idx` ON `personas` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `subworkflows_workspace_idx` ON `subworkflows` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `workflow_personas_workspace_idx` ON `workflow_personas` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `workflows_workspace_idx` ON `workflows` (`workspace_id`);--> statement-breakpoint
CREATE INDEX `workspaces_stripe_customer_idx` ON `workspaces` (`stripe_customer_id`);