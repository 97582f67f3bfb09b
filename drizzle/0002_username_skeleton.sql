ALTER TABLE `users` ADD `username_skeleton` text;--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_skeleton_unique` ON `users` (`username_skeleton`);