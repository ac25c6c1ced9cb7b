DROP INDEX `links_workspace_status_expiry`;--> statement-breakpoint
DROP INDEX `links_workspace_created`;--> statement-breakpoint
DROP INDEX `links_workspace_flow_created`;--> statement-breakpoint
-- Links that expired unopened more than a day ago leave the pending range (the ledger's alarm
-- recorded their link.expired long since; it stores `expired` for the rest as it records them).
UPDATE `links` SET `status` = 'expired'
  WHERE `status` = 'pending' AND `expires_at` <= (CAST(strftime('%s', 'now') AS INTEGER) - 86400) * 1000;--> statement-breakpoint
CREATE INDEX `links_workspace_flow_settled` ON `links` (`workspace_id`,`flow_id`,`created_at`,`id`) WHERE status <> 'pending';
