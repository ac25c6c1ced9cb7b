ALTER TABLE `workflows` ADD `runner_shards` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `workflows` ADD `runner_shards_ever` integer DEFAULT 1 NOT NULL;