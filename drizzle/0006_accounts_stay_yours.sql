CREATE TABLE `email_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_changes_user_idx` ON `email_changes` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `verified_email` text;--> statement-breakpoint
ALTER TABLE `demo_mails` ADD `user_id` integer REFERENCES users(id) ON DELETE cascade;--> statement-breakpoint
-- Addresses verified before this column existed are the last verified ones.
UPDATE `users` SET `verified_email` = `email` WHERE `email_verified` = 1;