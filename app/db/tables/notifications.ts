// Reaching people outside the app (docs/product-rules.md#notifications, #accounts): the outbox, opt-outs,
// push subscriptions, and demo mode's mails.
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./accounts";
import { activityEvents } from "./social";

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
    nextAttemptAt: integer("next_attempt_at", { mode: "number" }).notNull(),
    /** When a claim lapses: a row still 'sending' after it was cut off mid-send. */
    claimedUntil: integer("claimed_until", { mode: "number" }),
    lastError: text("last_error"),
    doneAt: integer("done_at", { mode: "number" }),
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

// Demo mode without SMTP_URL: what would have been mailed, for /demo/outbox.
// Each row names the account it concerns, so /demo/outbox shows a browser
// only its own accounts' mail (docs/decisions/0970-demo-outbox-per-browser.md).
export const demoMails = sqliteTable("demo_mails", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  userId: integer("user_id").references(() => users.id, {
    onDelete: "cascade",
  }),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  createdAt: createdAt(),
});

// Live pages (docs/product-rules.md#live-pages): one row per person who
// should hear that something they see changed, written in the same
// transaction as the change. Every process reads new rows by id (the
// cursor) and passes them to its open event streams; rows older than a day
// are swept. No foreign key on bet_id: a deleted bet's last word must stay.
export const liveEvents = sqliteTable(
  "live_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["bet", "friends", "activity"] }).notNull(),
    betId: integer("bet_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("live_events_user_idx").on(t.userId, t.id),
    index("live_events_created_idx").on(t.createdAt),
  ],
);
