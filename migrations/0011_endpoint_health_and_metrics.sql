ALTER TABLE `delivery_attempts` ADD `endpoint_id` text;--> statement-breakpoint
-- Written by hand: attempts made before the column name their endpoint too.
UPDATE `delivery_attempts` SET `endpoint_id` = (SELECT `endpoint_id` FROM `event_deliveries` WHERE `event_deliveries`.`id` = `delivery_attempts`.`delivery_id`);--> statement-breakpoint
CREATE INDEX `delivery_attempts_endpoint_at` ON `delivery_attempts` (`endpoint_id`,`at`,`response_status`,`delivery_id`);--> statement-breakpoint
ALTER TABLE `event_endpoints` ADD `consecutive_failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `event_endpoints` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `event_endpoints` ADD `auto_recover` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `event_endpoints` ADD `last_incident_since` integer;--> statement-breakpoint
-- Written by hand: an endpoint failing now shows its run of failures and the last one's error.
UPDATE `event_endpoints` SET `consecutive_failures` = (SELECT count(*) FROM `delivery_attempts` WHERE `delivery_attempts`.`endpoint_id` = `event_endpoints`.`id` AND `delivery_attempts`.`at` >= `event_endpoints`.`failing_since`), `last_error` = (SELECT CASE WHEN `response_status` IS NULL THEN `response_body` ELSE 'HTTP ' || `response_status` END FROM `delivery_attempts` WHERE `delivery_attempts`.`endpoint_id` = `event_endpoints`.`id` ORDER BY `at` DESC LIMIT 1) WHERE `failing_since` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `links_workspace_started` ON `links` (`workspace_id`,`started_at`) WHERE started_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `links_workspace_ended` ON `links` (`workspace_id`,`ended_at`) WHERE ended_at IS NOT NULL;