// Abuse limits (docs/product-rules.md#abuse-limits): a count of attempts per
// key (an address, an account) in a fixed window, attached to what is done
// (signing in, a code lookup that misses), wherever it is reached. Counted
// in the database (`abuse_windows`), so several worker processes, or several
// machines on one database, share one count: a limit is the same however
// many processes answer (docs/decisions/1002).
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { db, immediate, changedRows } from "~/db/client.server";
import { abuseWindows } from "~/db/schema";
import { rateLimitsOn } from "~/utils/env.server";
import { TooManyRequestsError } from "~/utils/rate-limit.server";

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

  /** Throws 429 (with Retry-After) if any key has used up its window. */
  async check(keys: string[], now = Date.now()) {
    if (!rateLimitsOn) return;
    for (const key of keys) {
      const window = (
        await db
          .select({ count: abuseWindows.count, resetAt: abuseWindows.resetAt })
          .from(abuseWindows)
          .where(
            and(
              eq(abuseWindows.limit, this.options.name),
              eq(abuseWindows.key, key),
              gt(abuseWindows.resetAt, new Date(now)),
            ),
          )
          .limit(1)
      )[0];
      if (window && window.count >= this.options.limit)
        throw new TooManyRequestsError(
          this.options.message,
          Math.max(1, Math.ceil((window.resetAt.getTime() - now) / 1000)),
        );
    }
  }

  /** Counts one attempt against every key: one statement each, so no count is lost to a race. */
  async record(keys: string[], now = Date.now()) {
    if (!rateLimitsOn) return;
    const resetAt = now + this.options.windowMs;
    for (const key of keys)
      await immediate(
        (tx) =>
          tx
            .insert(abuseWindows)
            .values({
              limit: this.options.name,
              key,
              count: 1,
              resetAt: new Date(resetAt),
            })
            .onConflictDoUpdate({
              target: [abuseWindows.limit, abuseWindows.key],
              // A window that is over starts again from this attempt.
              set: {
                count: sql`CASE WHEN ${abuseWindows.resetAt} <= ${now} THEN 1 ELSE ${abuseWindows.count} + 1 END`,
                resetAt: sql`CASE WHEN ${abuseWindows.resetAt} <= ${now} THEN ${resetAt} ELSE ${abuseWindows.resetAt} END`,
              },
            }),
        { bookkeeping: true },
      );
  }

  /**
   * Check, then count, in one transaction: for attempts that count whatever
   * their outcome. Two processes cannot both take the last attempt.
   */
  async take(keys: string[], now = Date.now()) {
    if (!rateLimitsOn) return;
    // Counting an attempt is not what a request is about: it does not
    // make a refused request's idempotency key "changed something".
    await immediate(
      async () => {
        await this.check(keys, now);
        await this.record(keys, now);
      },
      { bookkeeping: true },
    );
  }
}

/**
 * Several limits checked, then all counted, in one transaction: a request
 * counted against more than one limit at once (a reset asked for per
 * address and per login). Checked and counted apart, simultaneous requests
 * could all pass the checks before any was counted.
 */
export async function takeTogether(
  takes: [AbuseLimit, string[]][],
  now = Date.now(),
) {
  if (!rateLimitsOn) return;
  await immediate(
    async () => {
      for (const [limit, keys] of takes) await limit.check(keys, now);
      for (const [limit, keys] of takes) await limit.record(keys, now);
    },
    { bookkeeping: true },
  );
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
