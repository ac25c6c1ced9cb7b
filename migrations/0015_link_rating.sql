ALTER TABLE `channels` ADD `rating` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `rating_score` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `rating_comment` text;--> statement-breakpoint
ALTER TABLE `links` ADD `rated_at` integer;