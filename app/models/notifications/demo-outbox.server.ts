// The demo outbox (/demo/outbox, demo mode without SMTP_URL) shows a browser
// only mail about accounts it has been signed in to: the one signed in now,
// and those this browser signed up, signed in to or reset before, remembered
// by a signed cookie set with the session. A reset asked for someone else's
// account is not "caused" by this browser in any sense that matters: listing
// it would hand the account over, so it is never listed
// (docs/decisions/0970-demo-outbox-per-browser.md).
import { sql, inArray } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { demoMails } from "~/db/schema";
import { hasSmtp } from "~/messaging/mail.server";
import { isDemoMode, isProduction } from "~/utils/env.server";
import { sessionSecret } from "~/utils/env-start.server";
import { signedCookie } from "~/framework/signed-cookie.server";

/** Enough for a person trying the demo under a few names. */
const ACCOUNTS_KEPT = 10;

const accountsCookie = signedCookie("fairshake_demo_accounts", {
  httpOnly: true,
  sameSite: "lax",
  secure: isProduction,
  path: "/",
  maxAge: 30 * 24 * 60 * 60,
  secrets: [sessionSecret()],
});

/** Whether mail is kept for /demo/outbox instead of being sent. */
export const demoOutboxOn = () => isDemoMode && !hasSmtp();

function accountsOf(cookieHeader: string | null): number[] {
  const value = accountsCookie.read(cookieHeader);
  return Array.isArray(value)
    ? value.filter((id): id is number => Number.isSafeInteger(id) && id > 0)
    : [];
}

/**
 * The Set-Cookie line that adds `userId` to this browser's accounts, or null
 * when there is no demo outbox. Called wherever a session starts.
 */
export async function rememberDemoAccount(
  cookieHeader: string | null,
  userId: number,
): Promise<string | null> {
  if (!demoOutboxOn()) return null;
  const ids = [
    userId,
    ...accountsOf(cookieHeader).filter((id) => id !== userId),
  ];
  return accountsCookie.serialize(ids.slice(0, ACCOUNTS_KEPT));
}

/**
 * This browser's demo mail, newest first: about the signed-in account or an
 * account it was signed in to before. Nothing else, ever.
 */
export async function demoOutboxFor(
  cookieHeader: string | null,
  signedInId: number | null,
  limit = 50,
) {
  const ids = new Set(accountsOf(cookieHeader));
  if (signedInId !== null) ids.add(signedInId);
  if (ids.size === 0) return [];
  return await db
    .select()
    .from(demoMails)
    .where(inArray(demoMails.userId, [...ids]))
    .orderBy(sql`${demoMails.id} desc`)
    .limit(limit);
}
