DROP INDEX `event_deliveries_workspace_status_next`;--> statement-breakpoint
ALTER TABLE `event_deliveries` ADD `claimed_until` integer;--> statement-breakpoint
ALTER TABLE `event_deliveries` ADD `succeeded_at` integer;--> statement-breakpoint
ALTER TABLE `event_deliveries` ADD `success_status` integer;--> statement-breakpoint
ALTER TABLE `event_deliveries` ADD `success_latency_ms` integer;--> statement-breakpoint
ALTER TABLE `event_deliveries` ADD `success_body` text;--> statement-breakpoint
CREATE INDEX `event_deliveries_workspace_status_next_succeeded` ON `event_deliveries` (`workspace_id`,`status`,`next_attempt_at`,`succeeded_at`);