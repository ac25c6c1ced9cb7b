ALTER TABLE `agents` ADD `analysis` text;--> statement-breakpoint
ALTER TABLE `links` ADD `analysis` text;