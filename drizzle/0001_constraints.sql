-- Ledger entries are facts: once written they are never changed or removed.
-- A correction is a new entry, never an edit.
CREATE TRIGGER `ledger_entries_no_update` BEFORE UPDATE ON `ledger_entries`
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are immutable');
END;
--> statement-breakpoint
CREATE TRIGGER `ledger_entries_no_delete` BEFORE DELETE ON `ledger_entries`
BEGIN
  SELECT RAISE(ABORT, 'ledger entries are immutable');
END;
--> statement-breakpoint
-- One friendship row per pair of people, whichever of them asked.
CREATE UNIQUE INDEX `friendships_pair_unique` ON `friendships` (min(`requester_id`, `addressee_id`), max(`requester_id`, `addressee_id`));
