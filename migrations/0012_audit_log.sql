CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text,
	`at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`actor_name` text,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`ip` text,
	`user_agent` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_log_workspace_at` ON `audit_log` (`workspace_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_workspace_action` ON `audit_log` (`workspace_id`,`action`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_workspace_actor` ON `audit_log` (`workspace_id`,`actor_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);