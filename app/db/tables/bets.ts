// Bets, their two seats, and who opened a private bet by its code.
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./accounts";
import { BET_STATUSES } from "../../domain/bet";
import type { Currency } from "../../domain/currency";

export const VISIBILITIES = ["public", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const bets = sqliteTable(
  "bets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    // In the bet's currency's smallest unit (cents; whole yen): docs/money.md#currencies.
    amountCents: integer("amount_cents").notNull(),
    // ISO 4217, chosen at create, fixed once someone joined (docs/product-rules.md#currencies).
    currency: text("currency").$type<Currency>().notNull().default("USD"),
    visibility: text("visibility", { enum: VISIBILITIES }).notNull(),
    deadline: integer("deadline", { mode: "timestamp_ms" }).notNull(),
    status: text("status", { enum: BET_STATUSES }).notNull().default("pending"),
    creatorId: integer("creator_id")
      .notNull()
      .references(() => users.id),
    winnerId: integer("winner_id").references(() => users.id),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
    // A friend of the creator both sides accept by joining (docs/product-rules.md#referee).
    refereeId: integer("referee_id").references(() => users.id),
    // Called off by agreement, silence or the referee (docs/product-rules.md#void).
    voidedAt: integer("voided_at", { mode: "timestamp_ms" }),
    // The loser of a settled bet pays by then (docs/product-rules.md#getting-paid).
    paymentDueAt: integer("payment_due_at", { mode: "timestamp_ms" }),
    // The last time the winner nudged the loser (the interval in docs/product-rules.md#getting-paid).
    lastNudgedAt: integer("last_nudged_at", { mode: "timestamp_ms" }),
    // A dispute referred to the referee, until it is ruled or agreed.
    disputeReferredAt: integer("dispute_referred_at", {
      mode: "timestamp_ms",
    }),
    disputeReferredBy: integer("dispute_referred_by").references(
      () => users.id,
    ),
    createdAt: createdAt(),
    // The bet's version: a join carries the value it was shown (docs/product-rules.md#joining).
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    check("bets_amount_positive", sql`${t.amountCents} > 0`),
    check("bets_visibility", sql`${t.visibility} IN ('public','private')`),
    check(
      "bets_status",
      sql`${t.status} IN ('pending','active','settled','cancelled')`,
    ),
    index("bets_feed_idx").on(t.visibility, t.status, t.createdAt),
    index("bets_creator_idx").on(t.creatorId, t.status),
    index("bets_status_deadline_idx").on(t.status, t.deadline),
  ],
);

export const betParticipants = sqliteTable(
  "bet_participants",
  {
    betId: integer("bet_id")
      .notNull()
      .references(() => bets.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    // Seat 1 is the creator, seat 2 the one who joined. With (bet, seat)
    // unique, a third participant cannot exist even if a rule is missed.
    seat: integer("seat").notNull(),
    joinedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.betId, t.userId] }),
    uniqueIndex("bet_participants_seat_unique").on(t.betId, t.seat),
    index("bet_participants_user_idx").on(t.userId),
    check("bet_participants_seat", sql`${t.seat} IN (1, 2)`),
  ],
);

// Who opened a private bet by its code (docs/product-rules.md#private-bets).
export const betAccess = sqliteTable(
  "bet_access",
  {
    betId: integer("bet_id")
      .notNull()
      .references(() => bets.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    grantedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.betId, t.userId] })],
);

export type Bet = typeof bets.$inferSelect;
