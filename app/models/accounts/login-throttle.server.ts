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
// the last failure), so every process and every machine on one database
// sees the same delay (docs/decisions/1002-abuse-limits-in-the-database.md).
import crypto from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import { db, immediate } from "~/db/client.server";
import { abuseWindows } from "~/db/schema";
import { isProduction, rateLimitsOn, sessionSecret } from "~/utils/env.server";

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

/** Seconds to wait before this attempt may be checked, or 0. */
export async function loginRetryAfter(
  attempt: LoginAttempt,
  now = Date.now(),
): Promise<number> {
  if (!rateLimitsOn) return 0;
  const key = await throttleKey(attempt);
  const entry = (
    await db
      .select({ failures: abuseWindows.count, forgetAt: abuseWindows.resetAt })
      .from(abuseWindows)
      .where(and(rowFor(key), gt(abuseWindows.resetAt, new Date(now))))
      .limit(1)
  )[0];
  if (!entry) return 0;
  const over = entry.failures - FREE_FAILURES;
  if (over <= 0) return 0;
  const lastFailureAt = entry.forgetAt.getTime() - FORGET_AFTER_MS;
  const nextAttemptAt =
    lastFailureAt + Math.min(BASE_DELAY_MS * 2 ** (over - 1), MAX_DELAY_MS);
  return nextAttemptAt > now ? Math.ceil((nextAttemptAt - now) / 1000) : 0;
}

/** Counts a failure: one UPSERT, so failures on two machines at once both count. */
export async function recordLoginFailure(
  attempt: LoginAttempt,
  now = Date.now(),
) {
  if (!rateLimitsOn) return;
  const key = await throttleKey(attempt);
  const forgetAt = now + FORGET_AFTER_MS;
  await immediate(
    (tx) =>
      tx
        .insert(abuseWindows)
        .values({
          limit: LIMIT_NAME,
          key,
          count: 1,
          resetAt: new Date(forgetAt),
        })
        .onConflictDoUpdate({
          target: [abuseWindows.limit, abuseWindows.key],
          // Forgotten 15 minutes after the last failure: a count that is
          // over starts again from this one.
          set: {
            count: sql`CASE WHEN ${abuseWindows.resetAt} <= ${now} THEN 1 ELSE ${abuseWindows.count} + 1 END`,
            resetAt: sql`${forgetAt}`,
          },
        }),
    { bookkeeping: true },
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
