CREATE TABLE `abuse_windows` (
	`limit_name` text NOT NULL,
	`key` text NOT NULL,
	`count` integer NOT NULL,
	`reset_at` integer NOT NULL,
	PRIMARY KEY(`limit_name`, `key`)
);
--> statement-breakpoint
CREATE INDEX `abuse_windows_reset_idx` ON `abuse_windows` (`reset_at`);