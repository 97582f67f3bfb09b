// Work stored as rows, claimed once whatever the number of processes, and
// retried after growing delays (docs/operations.md#workers,
// docs/decisions/1032-one-claim-one-backoff.md). One claim and one backoff
// for both kinds of work:
//
// - the job queue (`jobs`, ./jobs.server.ts) does database work: the claim,
//   the handler's writes and the done marker commit in one transaction, so
//   a job runs exactly once;
// - the outbox (`notification_deliveries`,
//   app/models/notifications/outbox.server.ts) talks to the world (mail,
//   push): `lease` commits the claim in a transaction of its own, the send
//   runs outside any transaction, the outcome is recorded after it. A claim
//   left behind by a process that died mid-send is given up by the outbox,
//   never claimed again: at most once.
//
// A claim is one conditional UPDATE of one row, due and open at that instant:
// of several processes reaching for the row, one wins. On PostgreSQL the row
// is first locked with SKIP LOCKED, so a process finding it held by another
// (whose job runs inside that claim's transaction) moves on at once instead
// of waiting for that transaction to end.
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { engine, type Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";

/** A table of work: its rows have an `id` and count their `attempts`. */
type WorkTable = PgTable & { id: PgColumn; attempts: PgColumn };

/** A table of work as the claim sees it. */
export type WorkQueue<T extends WorkTable> = {
  table: T;
  /** When a row is next due: epoch milliseconds on both engines. */
  dueAt: PgColumn;
  /** Not finished and held by nobody, in the table's own terms. */
  open: (now: number) => SQL | undefined;
  /** What a claim writes besides `attempts + 1`. */
  hold: (now: number) => PgUpdateSetSource<T>;
};

/** A try failing this many times is the last: the work is given up. */
export const MAX_ATTEMPTS = 8;
/** No wait between tries is longer than an hour. */
const MAX_DELAY_MS = 60 * 60_000;

/**
 * The wait after the `attempts`-th failed try: `baseMs`, four times longer
 * after each further failure, at most an hour.
 */
export const backoffMs = (attempts: number, baseMs: number) =>
  Math.min(MAX_DELAY_MS, baseMs * 4 ** Math.max(0, attempts - 1));

/** After the `attempts`-th failed try: when to try again, or give up. */
export const afterFailure = (
  attempts: number,
  baseMs: number,
  now: number,
) => ({
  retryAt: now + backoffMs(attempts, baseMs),
  giveUp: attempts >= MAX_ATTEMPTS,
});

const claimable = <T extends WorkTable>(queue: WorkQueue<T>, now: number) =>
  and(queue.open(now), sql`${queue.dueAt} <= ${now}`);

/** Rows a claim could take at `now`, the longest due first. */
export async function dueRows<T extends WorkTable>(
  queue: WorkQueue<T>,
  now: number,
  { where, limit }: { where?: SQL; limit: number },
): Promise<{ id: number; dueAt: number }[]> {
  return await db
    .select({
      id: sql<number>`${queue.table.id}`.mapWith(Number),
      dueAt: sql<number>`${queue.dueAt}`.mapWith(Number),
    })
    .from(queue.table as PgTable)
    .where(and(claimable(queue, now), where))
    .orderBy(asc(queue.dueAt), asc(queue.table.id))
    .limit(limit);
}

/**
 * Claims row `id` in `tx` if it is still due and open: the row, its
 * attempts counting this one, or null when another process took it first.
 */
export async function claim<T extends WorkTable>(
  tx: Tx,
  queue: WorkQueue<T>,
  id: number,
  now: number,
): Promise<T["$inferSelect"] | null> {
  // SQLite has no row locks: its write transaction holds the whole file.
  if (engine === "postgres") {
    const free = await tx
      .select({ id: queue.table.id })
      .from(queue.table as PgTable)
      .where(and(eq(queue.table.id, id), claimable(queue, now)))
      .for("update", { skipLocked: true });
    if (free.length === 0) return null;
  }
  const rows = (await tx
    .update(queue.table as PgTable)
    .set({
      ...queue.hold(now),
      attempts: sql`${queue.table.attempts} + 1`,
    } as PgUpdateSetSource<PgTable>)
    .where(and(eq(queue.table.id, id), claimable(queue, now)))
    .returning()) as T["$inferSelect"][];
  return rows[0] ?? null;
}

/**
 * For work outside the database: claims the longest-due row in a committed
 * transaction of its own, so the work that follows runs outside any
 * transaction. Null when nothing is due or another process took it first.
 */
export async function lease<T extends WorkTable>(
  queue: WorkQueue<T>,
  now: number,
): Promise<T["$inferSelect"] | null> {
  const due = (await dueRows(queue, now, { limit: 1 }))[0];
  if (!due) return null;
  return await immediate((tx) => claim(tx, queue, due.id, now), {
    bookkeeping: true,
  });
}
