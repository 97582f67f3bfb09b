// The whole data model of Fairshake. Money is integer cents; instants are
// integer milliseconds since the epoch (UTC). Rules that the database can
// hold by itself (uniqueness, at most two seats per bet, one completed payment
// per bet, immutable ledger) are written here as constraints, so a bug in the
// model layer cannot break them.
import { sql } from "drizzle-orm";
import {
  blob,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { BET_STATUSES } from "../domain/bet";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsecond') * 1000 as integer))`);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    /**
     * The username's confusable skeleton (Unicode TR39, case-folded): two
     * names that look alike have the same one. Null only for rows written
     * before it existed, until start-up fills them in.
     */
    usernameSkeleton: text("username_skeleton"),
    email: text("email").notNull(),
    /** Notification mail goes only to a verified address (ruling 27). */
    emailVerified: integer("email_verified", { mode: "boolean" })
      .notNull()
      .default(false),
    passwordHash: text("password_hash").notNull(),
    avatarUrl: text("avatar_url"),
    winCount: integer("win_count").notNull().default(0),
    lossCount: integer("loss_count").notNull().default(0),
    applePayConnected: integer("apple_pay_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    googleWalletConnected: integer("google_wallet_connected", {
      mode: "boolean",
    })
      .notNull()
      .default(false),
    paypalConnected: integer("paypal_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    venmoConnected: integer("venmo_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    zelleConnected: integer("zelle_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    cardConnected: integer("card_connected", { mode: "boolean" })
      .notNull()
      .default(false),
    createdAt: createdAt(),
    /**
     * Set when the account was closed (ruling 32): the row stays, anonymised
     * (`deleted-{id}`, no email, no password), because bets, settlements and
     * ledger entries are the other side's history too.
     */
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // Usernames and emails are unique regardless of letter case.
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    // No name may pass for another: look-alikes share a skeleton.
    uniqueIndex("users_username_skeleton_unique").on(t.usernameSkeleton),
    check(
      "users_counts_non_negative",
      sql`${t.winCount} >= 0 AND ${t.lossCount} >= 0`,
    ),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the random token in the cookie: a leaked database does not
    // hand out live sessions.
    idHash: text("id_hash").primaryKey(),
    /**
     * The session's name on the security page and in
     * `DELETE /api/user/sessions/{id}`: random, unrelated to the token, so
     * showing it gives nothing away.
     */
    publicId: text("public_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The browser's User-Agent at sign-in, to tell devices apart (ruling 31). */
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    /** Refreshed at most every few minutes, not on every request. */
    lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("sessions_public_id_unique").on(t.publicId),
    index("sessions_user_idx").on(t.userId),
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

export const avatars = sqliteTable("avatars", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  contentType: text("content_type").notNull(),
  data: blob("data", { mode: "buffer" }).notNull(),
  etag: text("etag").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

// Relative, not "~/": drizzle-kit reads this file without the app's aliases.
export { BET_STATUSES, type BetStatus } from "../domain/bet";
export const VISIBILITIES = ["public", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const bets = sqliteTable(
  "bets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    code: text("code").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    amountCents: integer("amount_cents").notNull(),
    visibility: text("visibility", { enum: VISIBILITIES }).notNull(),
    deadline: integer("deadline", { mode: "timestamp_ms" }).notNull(),
    status: text("status", { enum: BET_STATUSES }).notNull().default("pending"),
    creatorId: integer("creator_id")
      .notNull()
      .references(() => users.id),
    winnerId: integer("winner_id").references(() => users.id),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
    // A friend of the creator both sides accept by joining (ruling 23).
    refereeId: integer("referee_id").references(() => users.id),
    // Called off by agreement, silence or the referee (ruling 22).
    voidedAt: integer("voided_at", { mode: "timestamp_ms" }),
    // The loser of a settled bet pays by then (ruling 24).
    paymentDueAt: integer("payment_due_at", { mode: "timestamp_ms" }),
    // The last time the winner nudged the loser (ruling 24's interval).
    lastNudgedAt: integer("last_nudged_at", { mode: "timestamp_ms" }),
    // A dispute referred to the referee, until it is ruled or agreed.
    disputeReferredAt: integer("dispute_referred_at", {
      mode: "timestamp_ms",
    }),
    disputeReferredBy: integer("dispute_referred_by").references(
      () => users.id,
    ),
    createdAt: createdAt(),
    // The bet's version: a join carries the value it was shown (ruling 9).
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

// Who opened a private bet by its code (ruling 13).
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

// One live settlement per bet, keyed by the bet's id (ruling 7).
export const settlements = sqliteTable(
  "settlements",
  {
    betId: integer("bet_id")
      .primaryKey()
      .references(() => bets.id, { onDelete: "cascade" }),
    // Both null for a void outcome (ruling 22).
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
    // The silent side is taken to approve at this instant (ruling 21); null
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
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: ["pending", "completed"] })
      .notNull()
      .default("pending"),
    createdAt: createdAt(),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("payments_bet_idx").on(t.betId),
    // At most one completed payment per bet, whatever the code does.
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
    amountCents: integer("amount_cents").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_user_time_idx").on(t.userId, t.createdAt),
    index("ledger_payment_idx").on(t.paymentId),
  ],
);

// A request from requester to addressee; accepted makes a symmetric
// friendship. One row per pair, whichever way it was asked.
export const friendships = sqliteTable(
  "friendships",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requesterId: integer("requester_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    addresseeId: integer("addressee_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "accepted"] }).notNull(),
    createdAt: createdAt(),
    respondedAt: integer("responded_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // friendships_pair_unique, on (min(a, b), max(a, b)), is created in
    // drizzle/0001 by hand: drizzle-kit cannot write a multi-argument
    // expression index.
    index("friendships_addressee_idx").on(t.addresseeId, t.status),
    index("friendships_requester_idx").on(t.requesterId, t.status),
    check("friendships_not_self", sql`${t.requesterId} <> ${t.addresseeId}`),
  ],
);

export const activityEvents = sqliteTable(
  "activity_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    actorId: integer("actor_id").references(() => users.id, {
      onDelete: "set null",
    }),
    type: text("type").notNull(),
    message: text("message").notNull(),
    betId: integer("bet_id").references(() => bets.id, { onDelete: "cascade" }),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("activity_user_time_idx").on(t.userId, t.id),
    index("activity_user_unread_idx").on(t.userId, t.read),
  ],
);

// --- Reaching people outside the app (rulings 26–29) ------------------------

// The outbox: one row per activity event and channel, written in the same
// transaction as the event. The worker claims a row with a conditional update
// just before it sends, so each is sent at most once, whatever the number of
// processes, restarts or crashes.
export const notificationDeliveries = sqliteTable(
  "notification_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => activityEvents.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["email", "push"] }).notNull(),
    status: text("status", {
      enum: ["pending", "sending", "sent", "skipped", "failed"],
    })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    /** When a claim lapses: a row still 'sending' after it was cut off mid-send. */
    claimedUntil: integer("claimed_until"),
    lastError: text("last_error"),
    doneAt: integer("done_at"),
  },
  (t) => [
    uniqueIndex("notification_deliveries_event_channel").on(
      t.eventId,
      t.channel,
    ),
    index("notification_deliveries_due").on(t.status, t.nextAttemptAt),
  ],
);

// Opt-outs only: every kind on every channel is on until switched off.
export const notificationOptOuts = sqliteTable(
  "notification_opt_outs",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["email", "push"] }).notNull(),
    kind: text("kind").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channel, t.kind] })],
);

export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint").on(t.endpoint),
    index("push_subscriptions_user").on(t.userId),
  ],
);

// Single-use links sent by mail (verification now, password reset later):
// only the token's SHA-256 is stored, so a copied database opens nothing.
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", {
      enum: ["verify_email", "reset_password"],
    }).notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The address the link was sent to: a later email change voids it. */
    email: text("email").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("email_tokens_hash").on(t.tokenHash)],
);

// Demo mode without SMTP_URL: what would have been mailed, for /demo/outbox.
export const demoMails = sqliteTable("demo_mails", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  createdAt: createdAt(),
});

// Work that must happen later (a timeout, a reminder, a due date), stored so
// it survives restarts and crashes and runs once whatever the number of
// processes: a runner claims a row with a conditional UPDATE inside a
// BEGIN IMMEDIATE transaction (app/models/jobs.server.ts).
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    subjectId: integer("subject_id").notNull(),
    // Scheduling the same job twice is a no-op: kind, subject and occasion.
    key: text("key").notNull().unique(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>(),
    runAt: integer("run_at", { mode: "timestamp_ms" }).notNull(),
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }),
    claimedBy: text("claimed_by"),
    doneAt: integer("done_at", { mode: "timestamp_ms" }),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [index("jobs_due_idx").on(t.doneAt, t.runAt)],
);

export type User = typeof users.$inferSelect;
export type Bet = typeof bets.$inferSelect;
export type Settlement = typeof settlements.$inferSelect;
export type Payment = typeof payments.$inferSelect;
export type LedgerEntry = typeof ledgerEntries.$inferSelect;
export type ActivityEvent = typeof activityEvents.$inferSelect;
export type Job = typeof jobs.$inferSelect;
