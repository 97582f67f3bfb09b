-- Sessions get a public id for the security page. SQLite cannot add a NOT NULL
-- column without a default, so existing rows get '' and are then given a
-- random id each before the unique index is built (hand-edited).
ALTER TABLE `sessions` ADD `public_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `sessions` SET `public_id` = lower(hex(randomblob(16)));--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_public_id_unique` ON `sessions` (`public_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `deleted_at` integer;
