ALTER TABLE `workspaces` ADD `retention` text;--> statement-breakpoint
CREATE INDEX `events_workspace_created` ON `events` (`workspace_id`,`created_at`);