// Repeated failures for one account slow that account's attempts down with a
// growing delay. It never locks the owner out (docs/product-rules.md#abuse-limits), following OWASP's
// device cookies: a browser that has signed in to an account before carries a
// signed cookie naming it, and its attempts are counted on their own, so
// failures from elsewhere never hold it back. Attempts without that cookie
// share the account's count, keyed by the name typed, so unknown and real
// accounts behave the same.
//
// The count lives in the database, in the abuse limits' table (a row per
// key under the name `login-failures`, its window ending 15 minutes after
// the last attempt counted), so every process and every machine on one
// database sees the same delay (docs/decisions/1002-abuse-limits-in-the-database.md).
// An attempt is counted before its password is checked, and a success
// clears the count: what stays counted are the failures, and attempts sent
// together are checked no faster than one after another
// (docs/decisions/1035-limits-taken-atomically.md).
import crypto from "node:crypto";
import { and, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { createCookie } from "react-router";
import { immediate } from "~/db/transactions.server";
import { abuseWindows } from "~/db/schema";
import { isProduction, rateLimitsOn } from "~/utils/env.server";
import { sessionSecret } from "~/utils/env-start.server";

const FREE_FAILURES = 4;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;
const FORGET_AFTER_MS = 15 * 60_000;
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;
const LIMIT_NAME = "login-failures";

const accountKey = (username: string) => username.trim().toLowerCase();

const deviceCookie = createCookie(
  isProduction ? "__Host-fairshake_device" : "fairshake_device",
  {
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction,
    path: "/",
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
    secrets: [sessionSecret()],
  },
);

/** Who is trying: this browser's own device key for the account, else the account's shared one. */
export type LoginAttempt = { username: string; cookieHeader: string | null };

async function throttleKey({ username, cookieHeader }: LoginAttempt) {
  const value: unknown = await deviceCookie.parse(cookieHeader);
  const account = accountKey(username);
  if (
    value &&
    typeof value === "object" &&
    "account" in value &&
    "device" in value &&
    value.account === account &&
    typeof value.device === "string"
  )
    return `device:${value.device}`;
  return `account:${account}`;
}

const rowFor = (key: string) =>
  and(eq(abuseWindows.limit, LIMIT_NAME), eq(abuseWindows.key, key));

/** How long after the last counted attempt the next may be checked, by the count so far. */
function delayAfterMs(attempts: number) {
  const over = attempts - FREE_FAILURES;
  return over <= 0
    ? 0
    : Math.min(BASE_DELAY_MS * 2 ** (over - 1), MAX_DELAY_MS);
}

/** `delayAfterMs` in SQL, for a count column: our own constants, written out. */
function delayAfterSql(attempts: SQLWrapper): SQL {
  const steps: SQL[] = [];
  for (let n = FREE_FAILURES + 1; delayAfterMs(n) < MAX_DELAY_MS; n += 1)
    steps.push(
      sql`WHEN ${attempts} = ${sql.raw(String(n))} THEN ${sql.raw(String(delayAfterMs(n)))}`,
    );
  return sql`CASE WHEN ${attempts} <= ${sql.raw(String(FREE_FAILURES))} THEN 0 ${sql.join(steps, sql` `)} ELSE ${sql.raw(String(MAX_DELAY_MS))} END`;
}

/**
 * Counts this attempt before its password is checked, if the delay lets one
 * through now; answers 0 then, else the seconds to wait (and counts
 * nothing). One conditional UPSERT: simultaneous attempts, on one machine
 * or several, get through no faster than one after another
 * (docs/decisions/1035-limits-taken-atomically.md). A success clears the
 * count (`recordLoginSuccess`); a failure leaves it counted.
 */
export async function takeLoginAttempt(
  attempt: LoginAttempt,
  now = Date.now(),
): Promise<number> {
  if (!rateLimitsOn) return 0;
  const key = await throttleKey(attempt);
  const forgetAt = now + FORGET_AFTER_MS;
  // The row's end is always its last attempt + FORGET_AFTER_MS.
  const lastAttemptAt = sql`${abuseWindows.resetAt} - ${sql.raw(String(FORGET_AFTER_MS))}`;
  return immediate(
    async (tx) => {
      const counted = await tx
        .insert(abuseWindows)
        .values({
          limit: LIMIT_NAME,
          key,
          count: 1,
          resetAt: new Date(forgetAt),
        })
        .onConflictDoUpdate({
          target: [abuseWindows.limit, abuseWindows.key],
          // Forgotten 15 minutes after the last attempt: a count that is
          // over starts again from this one.
          set: {
            count: sql`CASE WHEN ${abuseWindows.resetAt} <= ${now} THEN 1 ELSE ${abuseWindows.count} + 1 END`,
            resetAt: sql`${forgetAt}`,
          },
          // Only once the delay the count so far earns has passed; else
          // the row is left as it is and no row comes back.
          // The free ones are let through whatever the clocks say (another
          // process's attempt may carry an instant a little after `now`).
          setWhere: sql`${abuseWindows.resetAt} <= ${now} OR ${abuseWindows.count} <= ${sql.raw(String(FREE_FAILURES))} OR ${lastAttemptAt} + ${delayAfterSql(abuseWindows.count)} <= ${now}`,
        })
        .returning({ count: abuseWindows.count });
      if (counted.length > 0) return 0;
      const entry = (
        await tx
          .select({
            attempts: abuseWindows.count,
            forgetAt: abuseWindows.resetAt,
          })
          .from(abuseWindows)
          .where(rowFor(key))
          .limit(1)
      )[0];
      const nextAt = entry
        ? entry.forgetAt.getTime() -
          FORGET_AFTER_MS +
          delayAfterMs(entry.attempts)
        : now;
      return Math.max(1, Math.ceil((nextAt - now) / 1000));
    },
    { bookkeeping: true, isolation: "read committed" },
  );
}

/**
 * Clears this browser's count and hands it a device cookie for the account
 * (a new random device id: a copied old cookie stops counting as this one).
 */
export async function recordLoginSuccess(
  attempt: LoginAttempt,
): Promise<string> {
  if (rateLimitsOn) {
    const key = await throttleKey(attempt);
    await immediate((tx) => tx.delete(abuseWindows).where(rowFor(key)), {
      bookkeeping: true,
    });
  }
  return deviceCookie.serialize({
    account: accountKey(attempt.username),
    device: crypto.randomBytes(16).toString("base64url"),
  });
}
