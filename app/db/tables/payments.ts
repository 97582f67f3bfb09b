// Money: payments, the demo provider's intents, Stripe events seen, the ledger.
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./accounts";
import { bets } from "./bets";
import type { Currency } from "../../domain/currency";

export const PROVIDERS = ["demo", "stripe"] as const;

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    betId: integer("bet_id")
      .notNull()
      .references(() => bets.id),
    payerId: integer("payer_id")
      .notNull()
      .references(() => users.id),
    payeeId: integer("payee_id")
      .notNull()
      .references(() => users.id),
    provider: text("provider", { enum: PROVIDERS }).notNull(),
    intentId: text("intent_id").notNull().unique(),
    // The bet's currency, in its smallest unit.
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").$type<Currency>().notNull().default("USD"),
    status: text("status", { enum: ["pending", "completed"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("payments_bet_idx").on(t.betId),
    // At most one completed payment per bet, whatever the code does.
    // A statement run many times must compare `status` with a literal, not
    // a bound value, or SQLite recompiles it on every run (docs/decisions/archive/0834-no-bound-value-against-a-partial-index.md).
    uniqueIndex("payments_one_completed_per_bet")
      .on(t.betId)
      .where(sql`status = 'completed'`),
    check("payments_amount_positive", sql`${t.amountCents} > 0`),
  ],
);

// The demo provider's own record of its intents: it plays the part of the
// card processor, which the server asks before recording a payment.
export const demoPaymentIntents = sqliteTable("demo_payment_intents", {
  id: text("id").primaryKey(),
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").$type<Currency>().notNull().default("USD"),
  betId: integer("bet_id").notNull(),
  status: text("status", {
    enum: ["requires_payment_method", "succeeded", "canceled"],
  })
    .notNull()
    .default("requires_payment_method"),
  lastError: text("last_error"),
  createdAt: createdAt(),
});

// Stripe webhook events already handled: a replay changes nothing.
export const processedWebhookEvents = sqliteTable("processed_webhook_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: createdAt(),
});

// Immutable double-entry lines; triggers in the migrations refuse UPDATE and
// DELETE. The entries of one payment sum to zero.
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id),
    betId: integer("bet_id")
      .notNull()
      .references(() => bets.id),
    // null is the platform's own account.
    userId: integer("user_id").references(() => users.id),
    kind: text("kind", { enum: ["payment", "payout", "fee"] }).notNull(),
    // In `currency`'s smallest unit: a payment's entries sum to zero in it.
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").$type<Currency>().notNull().default("USD"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_user_time_idx").on(t.userId, t.createdAt),
    index("ledger_payment_idx").on(t.paymentId),
  ],
);

export type Payment = typeof payments.$inferSelect;
