// Abuse limits (docs/product-rules.md#abuse-limits): a count of attempts per
// key (an address, an account) in a fixed window, attached to what is done
// (signing in, a code lookup that misses), wherever it is reached. Counted
// in the database (`abuse_windows`), so several worker processes, or several
// machines on one database, share one count: a limit is the same however
// many processes answer (docs/decisions/1002-abuse-limits-in-the-database.md).
//
// An attempt is taken before the work it guards, by one conditional UPSERT
// that counts it only while the window has room: simultaneous requests
// cannot all pass a check that none of them has counted yet
// (docs/decisions/1035-limits-taken-atomically.md).
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { abuseWindows } from "~/db/schema";
import { rateLimitsOn } from "~/utils/env.server";
import { TooManyRequestsError } from "~/utils/rate-limit.server";

/** One attempt counted against one key of one limit: what `giveBack` needs. */
export type Taken = { limit: string; key: string; resetAt: number };

// Every statement here is one UPSERT or one UPDATE on a row, which
// PostgreSQL holds with the row's lock at any isolation: simultaneous takes
// queue on the row and each sees the count the one before left, instead of
// being cancelled by SERIALIZABLE's checks and run again.
const ONE_ROW_AT_A_TIME = {
  bookkeeping: true,
  isolation: "read committed",
} as const;

const rowOf = (limit: string, key: string) =>
  and(eq(abuseWindows.limit, limit), eq(abuseWindows.key, key));

export class AbuseLimit {
  constructor(
    private readonly options: {
      /** The limit's name in the table: one per limit. */
      name: string;
      limit: number;
      windowMs: number;
      message: string;
    },
  ) {}

  /**
   * Counts one attempt against every key, or none: 429 (with Retry-After)
   * if any key's window is used up.
   */
  take(keys: string[], now = Date.now()): Promise<Taken[]> {
    return takeTogether([[this, keys]], now);
  }

  /** Counts one attempt against `key` inside `tx` if its window has room; else throws 429. */
  async takeOne(tx: Tx, key: string, now: number): Promise<Taken> {
    const { name, limit, windowMs, message } = this.options;
    const windowOver = sql`${abuseWindows.resetAt} <= ${now}`;
    const [counted] = await tx
      .insert(abuseWindows)
      .values({ limit: name, key, count: 1, resetAt: new Date(now + windowMs) })
      .onConflictDoUpdate({
        target: [abuseWindows.limit, abuseWindows.key],
        // A window that is over starts again from this attempt.
        set: {
          count: sql`CASE WHEN ${windowOver} THEN 1 ELSE ${abuseWindows.count} + 1 END`,
          resetAt: sql`CASE WHEN ${windowOver} THEN ${now + windowMs} ELSE ${abuseWindows.resetAt} END`,
        },
        // Only while there is room: a full window is left as it is, and
        // then no row comes back.
        setWhere: sql`${windowOver} OR ${abuseWindows.count} < ${limit}`,
      })
      .returning({ resetAt: abuseWindows.resetAt });
    if (counted)
      return { limit: name, key, resetAt: counted.resetAt.getTime() };
    const full = (
      await tx
        .select({ resetAt: abuseWindows.resetAt })
        .from(abuseWindows)
        .where(rowOf(name, key))
        .limit(1)
    )[0];
    const waitMs = (full?.resetAt.getTime() ?? now) - now;
    throw new TooManyRequestsError(
      message,
      Math.max(1, Math.ceil(waitMs / 1000)),
    );
  }
}

/**
 * Several limits taken in one transaction, all or none: a request counted
 * against more than one limit at once (a reset asked for per address and
 * per login; a code guess per account and per address). A refusal by any
 * rolls back what the others counted.
 */
export async function takeTogether(
  takes: [AbuseLimit, string[]][],
  now = Date.now(),
): Promise<Taken[]> {
  if (!rateLimitsOn) return [];
  return immediate(async (tx) => {
    const taken: Taken[] = [];
    for (const [limit, keys] of takes)
      for (const key of keys) taken.push(await limit.takeOne(tx, key, now));
    return taken;
  }, ONE_ROW_AT_A_TIME);
}

/**
 * Uncounts attempts that turned out not to count (a code that found a bet):
 * each from the window it was taken in, never from a newer one.
 */
export async function giveBack(taken: Taken[]) {
  if (taken.length === 0) return;
  await immediate(async (tx) => {
    for (const { limit, key, resetAt } of taken)
      await tx
        .update(abuseWindows)
        .set({ count: sql`${abuseWindows.count} - 1` })
        .where(
          and(
            rowOf(limit, key),
            eq(abuseWindows.resetAt, new Date(resetAt)),
            gt(abuseWindows.count, 0),
          ),
        );
  }, ONE_ROW_AT_A_TIME);
}

/** The sweep: windows that are over go. */
export async function sweepAbuseWindows(now = Date.now()) {
  return changedRows(
    await immediate(
      (tx) =>
        tx.delete(abuseWindows).where(lte(abuseWindows.resetAt, new Date(now))),
      { bookkeeping: true },
    ),
  );
}
