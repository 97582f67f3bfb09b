// Settling a bet: the one live settlement and the bet's history.
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./accounts";
import { bets } from "./bets";

export const PAYMENT_STATUSES = ["pending", "completed"] as const;
export const OUTCOMES = ["winner", "void"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const RESOLUTIONS = [
  "agreed",
  "conceded",
  "timeout",
  "referee",
] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

// One live settlement per bet, keyed by the bet's id (docs/product-rules.md#settlement).
export const settlements = sqliteTable(
  "settlements",
  {
    betId: integer("bet_id")
      .primaryKey()
      .references(() => bets.id, { onDelete: "cascade" }),
    // Both null for a void outcome (docs/product-rules.md#void).
    winnerId: integer("winner_id").references(() => users.id),
    loserId: integer("loser_id").references(() => users.id),
    proposedBy: integer("proposed_by")
      .notNull()
      .references(() => users.id),
    outcome: text("outcome", { enum: OUTCOMES }).notNull().default("winner"),
    notes: text("notes"),
    creatorApproved: integer("creator_approved", { mode: "boolean" })
      .notNull()
      .default(false),
    participantApproved: integer("participant_approved", { mode: "boolean" })
      .notNull()
      .default(false),
    proposedAt: createdAt(),
    // The silent side is taken to approve at this instant (docs/product-rules.md#answer-windows); null
    // while the dispute is with the referee, who has no timeout.
    respondBy: integer("respond_by", { mode: "timestamp_ms" }),
    resolution: text("resolution", { enum: RESOLUTIONS }),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
    feeCents: integer("fee_cents"),
    netCents: integer("net_cents"),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES })
      .notNull()
      .default("pending"),
  },
  (t) => [
    // A person's payment record (docs/product-rules.md#getting-paid) is read on every bet page and
    // profile that shows them: by loser, not a scan of every settlement.
    index("settlements_loser_idx").on(t.loserId),
    check("settlements_winner_not_loser", sql`${t.winnerId} <> ${t.loserId}`),
    check(
      "settlements_payment_status",
      sql`${t.paymentStatus} IN ('pending','completed')`,
    ),
    check("settlements_outcome", sql`${t.outcome} IN ('winner','void')`),
    // A winner outcome names both sides; a void one names neither.
    check(
      "settlements_outcome_sides",
      sql`(${t.outcome} = 'winner' AND ${t.winnerId} IS NOT NULL AND ${t.loserId} IS NOT NULL) OR (${t.outcome} = 'void' AND ${t.winnerId} IS NULL AND ${t.loserId} IS NULL)`,
    ),
  ],
);

// The history of a bet, kept even when a proposal is rejected and deleted.
export const betEvents = sqliteTable(
  "bet_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    betId: integer("bet_id")
      .notNull()
      .references(() => bets.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id),
    type: text("type").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index("bet_events_bet_idx").on(t.betId, t.id)],
);

export type Settlement = typeof settlements.$inferSelect;
