// Friends and the activity feed.
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import type { ActivityText } from "../../domain/activity-text";
import { createdAt } from "./columns";
import { users } from "./accounts";
import { bets } from "./bets";

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
    /**
     * The message as a catalog key and its values, so an email or a push
     * is written in the recipient's language when it goes out; null for
     * events older than languages (their English `message` is used).
     */
    data: text("data", { mode: "json" }).$type<ActivityText>(),
    betId: integer("bet_id").references(() => bets.id, { onDelete: "cascade" }),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("activity_user_time_idx").on(t.userId, t.id),
    index("activity_user_unread_idx").on(t.userId, t.read),
  ],
);
