// Repeated failures for one account slow that account's attempts down with a
// growing delay. It never locks the account: the delay is capped and expires,
// so nobody can shut a friend out by typing wrong passwords for them. It is
// keyed by the name typed, so unknown and real accounts behave the same.
import { rateLimitsOn } from "./env.server";

const FREE_FAILURES = 4;
const BASE_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;
const FORGET_AFTER_MS = 15 * 60_000;

type Entry = { failures: number; nextAttemptAt: number; lastFailureAt: number };
const entries = new Map<string, Entry>();

const keyOf = (username: string) => username.trim().toLowerCase();

/** Seconds to wait before this account may try again, or 0. */
export function loginRetryAfter(username: string, now = Date.now()): number {
  if (!rateLimitsOn) return 0;
  const entry = entries.get(keyOf(username));
  if (!entry) return 0;
  if (now - entry.lastFailureAt > FORGET_AFTER_MS) {
    entries.delete(keyOf(username));
    return 0;
  }
  return entry.nextAttemptAt > now
    ? Math.ceil((entry.nextAttemptAt - now) / 1000)
    : 0;
}

export function recordLoginFailure(username: string, now = Date.now()) {
  const key = keyOf(username);
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

export function recordLoginSuccess(username: string) {
  entries.delete(keyOf(username));
}
