// Work that must happen later.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

// Work that must happen later (a timeout, a reminder, a due date), stored so
// it survives restarts and crashes and runs once whatever the number of
// processes: a runner claims a row with a conditional UPDATE inside a
// BEGIN IMMEDIATE transaction (app/models/jobs/jobs.server.ts).
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

export type Job = typeof jobs.$inferSelect;
