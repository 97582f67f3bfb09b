CREATE TABLE `bet_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bet_id` integer NOT NULL,
	`author_id` integer NOT NULL,
	`body` text NOT NULL,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`bet_id`) REFERENCES `bets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "bet_messages_deleted_is_empty" CHECK("bet_messages"."deleted_at" IS NULL OR "bet_messages"."body" = '')
);
--> statement-breakpoint
CREATE INDEX `bet_messages_bet_idx` ON `bet_messages` (`bet_id`,`id`);--> statement-breakpoint
CREATE INDEX `bet_messages_author_time_idx` ON `bet_messages` (`author_id`,`created_at`);