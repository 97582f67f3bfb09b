// Talk on a bet (docs/product-rules.md#messages): what the two people on a
// bet and its referee write to each other, kept where the decision is made.
import { sql } from "drizzle-orm";
import {
  blob,
  check,
  index,
  integer,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./accounts";
import { bets } from "./bets";

// A message stays in its place once deleted (its author within the window,
// or the author's account closed): the body is emptied and deleted_at set,
// so the conversation keeps its order and reads 'Message deleted' there.
export const betMessages = sqliteTable(
  "bet_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    betId: integer("bet_id")
      .notNull()
      .references(() => bets.id, { onDelete: "cascade" }),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("bet_messages_bet_idx").on(t.betId, t.id),
    index("bet_messages_author_time_idx").on(t.authorId, t.createdAt),
    // A deleted message keeps no words.
    check(
      "bet_messages_deleted_is_empty",
      sql`${t.deletedAt} IS NULL OR ${t.body} = ''`,
    ),
  ],
);

// The photos a message carries as evidence: stored re-encoded (the long side
// at most 1,600 px, WebP, every metadata field gone) with a thumbnail, in the
// database like everything else, so copies, backups and replicas carry them.
export const betMessagePhotos = sqliteTable(
  "bet_message_photos",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id")
      .notNull()
      .references(() => betMessages.id, { onDelete: "cascade" }),
    betId: integer("bet_id")
      .notNull()
      .references(() => bets.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    data: blob("data", { mode: "buffer" }).notNull(),
    thumb: blob("thumb", { mode: "buffer" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("bet_message_photos_message_idx").on(t.messageId, t.position)],
);
