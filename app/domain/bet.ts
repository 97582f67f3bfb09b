// Client-safe facts about bets: the schema, the models and the components all
// read them from here, so a component never imports the database schema.
export const BET_STATUSES = [
  "pending",
  "active",
  "settled",
  "cancelled",
] as const;
export type BetStatus = (typeof BET_STATUSES)[number];
