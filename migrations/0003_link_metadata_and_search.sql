ALTER TABLE `links` ADD `metadata` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
CREATE INDEX `links_workspace_created` ON `links` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `links_workspace_external_created` ON `links` (`workspace_id`,`participant_external_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `links_workspace_flow_created` ON `links` (`workspace_id`,`flow_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `links_workspace_status_created` ON `links` (`workspace_id`,`status`,`created_at`,`id`);