// What a repeated request needs to be answered without being done twice.
import {
  blob,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./accounts";

// One row per idempotency key a signed-in person sent with a write
// (docs/product-rules.md#repeats). A row is claimed ('running') before the
// work starts; the change's own transaction stamps `effect_at`; the answer
// (status, Location, headers, body) is kept when the request succeeded or
// changed something. Rows are swept after a day (keys are kept ≥ 24 h).
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of method, route and body (a form's fields but the key). */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["running", "done"] }).notNull(),
    /** Until when a running claim belongs to the request that made it. */
    leaseUntil: integer("lease_until", { mode: "timestamp_ms" }).notNull(),
    /** Set inside the change's transaction: the work committed. */
    effectAt: integer("effect_at", { mode: "timestamp_ms" }),
    /** 'api', 'document' or 'data' (a page's single-fetch request). */
    flavour: text("flavour"),
    status: integer("status"),
    location: text("location"),
    /** The answer's headers worth repeating, as JSON [name, value] pairs. */
    headers: text("headers"),
    body: blob("body", { mode: "buffer" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("idempotency_keys_user_key_idx").on(t.userId, t.key),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

// The abuse limits' counts (docs/product-rules.md#abuse-limits): one row per
// limit and key (an address, an account) with its fixed window. In the
// database, so every worker process (and, on a shared database, every
// machine) counts against the same number. Swept when their window is over.
export const abuseWindows = sqliteTable(
  "abuse_windows",
  {
    limit: text("limit_name").notNull(),
    key: text("key").notNull(),
    count: integer("count").notNull(),
    resetAt: integer("reset_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.limit, t.key] }),
    index("abuse_windows_reset_idx").on(t.resetAt),
  ],
);
