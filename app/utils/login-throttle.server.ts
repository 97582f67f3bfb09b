// Repeated failures for one account slow that account's attempts down with a
// growing delay. It never locks the owner out (docs/product-rules.md#abuse-limits), following OWASP's
// device cookies: a browser that has signed in to an account before carries a
// signed cookie naming it, and its attempts are counted on their own, so
// failures from elsewhere never hold it back. Attempts without that cookie
// share the account's count, keyed by the name typed, so unknown and real
// accounts behave the same.
import crypto from "node:crypto";
import { createCookie } from "react-router";
import { isProduction, rateLimitsOn, sessionSecret } from "./env.server";

const FREE_FAILURES = 4;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;
const FORGET_AFTER_MS = 15 * 60_000;
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

type Entry = { failures: number; nextAttemptAt: number; lastFailureAt: number };
const entries = new Map<string, Entry>();

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

/** Seconds to wait before this attempt may be checked, or 0. */
export async function loginRetryAfter(
  attempt: LoginAttempt,
  now = Date.now(),
): Promise<number> {
  if (!rateLimitsOn) return 0;
  const key = await throttleKey(attempt);
  const entry = entries.get(key);
  if (!entry) return 0;
  if (now - entry.lastFailureAt > FORGET_AFTER_MS) {
    entries.delete(key);
    return 0;
  }
  return entry.nextAttemptAt > now
    ? Math.ceil((entry.nextAttemptAt - now) / 1000)
    : 0;
}

export async function recordLoginFailure(
  attempt: LoginAttempt,
  now = Date.now(),
) {
  const key = await throttleKey(attempt);
  const entry = entries.get(key) ?? {
    failures: 0,
    nextAttemptAt: 0,
    lastFailureAt: 0,
  };
  entry.failures += 1;
  entry.lastFailureAt = now;
  const over = entry.failures - FREE_FAILURES;
  entry.nextAttemptAt =
    over > 0
      ? now + Math.min(BASE_DELAY_MS * 2 ** (over - 1), MAX_DELAY_MS)
      : 0;
  entries.set(key, entry);
  // Keep the map bounded under a spray of made-up names.
  if (entries.size > 10_000) {
    for (const [k, e] of entries)
      if (now - e.lastFailureAt > FORGET_AFTER_MS) entries.delete(k);
  }
}

/**
 * Clears this browser's count and hands it a device cookie for the account
 * (a new random device id: a copied old cookie stops counting as this one).
 */
export async function recordLoginSuccess(
  attempt: LoginAttempt,
): Promise<string> {
  entries.delete(await throttleKey(attempt));
  return deviceCookie.serialize({
    account: accountKey(attempt.username),
    device: crypto.randomBytes(16).toString("base64url"),
  });
}
