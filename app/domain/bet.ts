// Client-safe facts about bets: the schema, the models and the components all
// read them from here, so a component never imports the database schema.
export const BET_STATUSES = [
  "pending",
  "active",
  "settled",
  "cancelled",
] as const;
export type BetStatus = (typeof BET_STATUSES)[number];

/**
 * The create and edit forms' fields as typed: what the page shows (the
 * defaults, or what was sent back after a refusal) and what the model reads
 * (`readBetForm`). The deadline is a date, an optional time and the zone.
 */
export type BetFormValues = {
  title: string;
  description: string;
  /** As typed, in the page's language (docs/product-rules.md#amounts-typed-the-local-way). */
  amount: string;
  /** The currency select; absent on forms without one (the edit form of a joined bet has none). */
  currency?: string;
  visibility: string;
  deadlineDate: string;
  deadlineTime: string;
  includeTime: boolean;
  timeZone: string;
  /** The referee select (docs/product-rules.md#referee); undefined when the form had none. */
  refereeId?: string;
};

/** The product's words for a bet that does not exist or that this viewer may not see. */
export const BET_NOT_FOUND = "This bet could not be found or has expired.";
