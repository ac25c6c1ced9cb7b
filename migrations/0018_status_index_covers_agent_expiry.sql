DROP INDEX `links_workspace_status_created`;--> statement-breakpoint
CREATE INDEX `links_workspace_status_created` ON `links` (`workspace_id`,`status`,`created_at`,`id`,`flow_id`,`expires_at`);