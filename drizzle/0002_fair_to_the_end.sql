CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`subject_id` integer NOT NULL,
	`key` text NOT NULL,
	`payload` text,
	`run_at` integer NOT NULL,
	`claimed_at` integer,
	`claimed_by` text,
	`done_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_key_unique` ON `jobs` (`key`);--> statement-breakpoint
CREATE INDEX `jobs_due_idx` ON `jobs` (`done_at`,`run_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_settlements` (
	`bet_id` integer PRIMARY KEY NOT NULL,
	`winner_id` integer,
	`loser_id` integer,
	`proposed_by` integer NOT NULL,
	`outcome` text DEFAULT 'winner' NOT NULL,
	`notes` text,
	`creator_approved` integer DEFAULT false NOT NULL,
	`participant_approved` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`respond_by` integer,
	`resolution` text,
	`settled_at` integer,
	`fee_cents` integer,
	`net_cents` integer,
	`payment_status` text DEFAULT 'pending' NOT NULL,
	FOREIGN KEY (`bet_id`) REFERENCES `bets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`winner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`loser_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`proposed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "settlements_winner_not_loser" CHECK("__new_settlements"."winner_id" <> "__new_settlements"."loser_id"),
	CONSTRAINT "settlements_payment_status" CHECK("__new_settlements"."payment_status" IN ('pending','completed')),
	CONSTRAINT "settlements_outcome" CHECK("__new_settlements"."outcome" IN ('winner','void')),
	CONSTRAINT "settlements_outcome_sides" CHECK(("__new_settlements"."outcome" = 'winner' AND "__new_settlements"."winner_id" IS NOT NULL AND "__new_settlements"."loser_id" IS NOT NULL) OR ("__new_settlements"."outcome" = 'void' AND "__new_settlements"."winner_id" IS NULL AND "__new_settlements"."loser_id" IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_settlements`("bet_id", "winner_id", "loser_id", "proposed_by", "notes", "creator_approved", "participant_approved", "created_at", "settled_at", "fee_cents", "net_cents", "payment_status") SELECT "bet_id", "winner_id", "loser_id", "proposed_by", "notes", "creator_approved", "participant_approved", "created_at", "settled_at", "fee_cents", "net_cents", "payment_status" FROM `settlements`;--> statement-breakpoint
DROP TABLE `settlements`;--> statement-breakpoint
ALTER TABLE `__new_settlements` RENAME TO `settlements`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `bets` ADD `referee_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `bets` ADD `voided_at` integer;--> statement-breakpoint
ALTER TABLE `bets` ADD `payment_due_at` integer;--> statement-breakpoint
ALTER TABLE `bets` ADD `last_nudged_at` integer;--> statement-breakpoint
ALTER TABLE `bets` ADD `dispute_referred_at` integer;--> statement-breakpoint
ALTER TABLE `bets` ADD `dispute_referred_by` integer REFERENCES users(id);--> statement-breakpoint
-- Written by hand: what existed before gets the rulings' defaults (72 h windows).
-- A proposal already live answers by 72 h after it was made; a settled bet is
-- due 72 h after it settled; both get their jobs.
UPDATE `settlements` SET `respond_by` = `created_at` + 259200000 WHERE `settled_at` IS NULL;--> statement-breakpoint
UPDATE `settlements` SET `resolution` = 'agreed' WHERE `settled_at` IS NOT NULL;--> statement-breakpoint
UPDATE `bets` SET `payment_due_at` = `settled_at` + 259200000 WHERE `status` = 'settled' AND `winner_id` IS NOT NULL AND `settled_at` IS NOT NULL;--> statement-breakpoint
INSERT INTO `jobs` (`kind`, `subject_id`, `key`, `payload`, `run_at`) SELECT 'settlement_timeout', `bet_id`, 'settlement_timeout:' || `bet_id` || ':' || `created_at`, json_object('proposedAt', `created_at`), `respond_by` FROM `settlements` WHERE `settled_at` IS NULL;--> statement-breakpoint
INSERT INTO `jobs` (`kind`, `subject_id`, `key`, `payload`, `run_at`) SELECT 'payment_overdue', s.`bet_id`, 'payment_overdue:' || s.`bet_id`, NULL, b.`payment_due_at` FROM `settlements` s JOIN `bets` b ON b.`id` = s.`bet_id` WHERE s.`settled_at` IS NOT NULL AND s.`payment_status` = 'pending' AND b.`payment_due_at` IS NOT NULL;