// Passkeys' challenges (docs/decisions/1080-passkeys.md): random, single use
// (the row is deleted as it is used), bound to the browser that asked by a
// signed httpOnly cookie naming the row, alive PASSKEY_CHALLENGE_TTL_S; and
// the relying party the ceremonies name (the site's own origin and host).
import crypto from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { immediate } from "~/db/transactions.server";
import { passkeyChallenges } from "~/db/schema";
import { signedCookie } from "~/framework/signed-cookie.server";
import { isProduction } from "~/utils/env.server";
import {
  configuredOrigin,
  passkeyChallengeTtlMs,
  publicOrigin,
} from "~/utils/env-settings.server";
import { sessionSecret } from "~/utils/env-start.server";
import { invalid } from "~/utils/errors";
import { PASSKEY_REQUEST_EXPIRED } from "./passkeys.server";

const challengeCookie = signedCookie(
  isProduction ? "__Host-fairshake_passkey" : "fairshake_passkey",
  {
    httpOnly: true,
    sameSite: "strict",
    secure: isProduction,
    path: "/",
    secrets: [sessionSecret()],
  },
);

/** The site's own origin and RP ID (its host name), from PUBLIC_ORIGIN. */
export function relyingParty(request?: Request) {
  // Without PUBLIC_ORIGIN (development, tests) the request's own origin.
  const origin = configuredOrigin() ?? publicOrigin(request);
  return { origin, rpID: new URL(origin).hostname, rpName: "Fairshake" };
}

export type Purpose = "register" | "sign_in";

/** Stores a fresh challenge and answers the cookie that binds it to this browser. */
export async function issueChallenge(
  challenge: string,
  purpose: Purpose,
  userId: number | null,
  now = Date.now(),
) {
  const id = crypto.randomBytes(24).toString("base64url");
  const ttl = passkeyChallengeTtlMs();
  await immediate(
    async (tx) => {
      // Spent and expired challenges go as new ones come.
      await tx
        .delete(passkeyChallenges)
        .where(lt(passkeyChallenges.expiresAt, now));
      await tx.insert(passkeyChallenges).values({
        id,
        challenge,
        purpose,
        userId,
        expiresAt: now + ttl,
      });
    },
    { bookkeeping: true },
  );
  return challengeCookie.serialize(id, { maxAge: Math.ceil(ttl / 1000) });
}

/**
 * Takes this browser's challenge for `purpose`: deleted as it is read, so
 * it is used once, whatever the answer. 400 when there is none, it is
 * spent, expired, or another person's.
 */
export async function takeChallenge(
  cookieHeader: string | null,
  purpose: Purpose,
  userId: number | null,
  now = Date.now(),
): Promise<string> {
  const id = challengeCookie.read(cookieHeader);
  if (typeof id !== "string" || id === "")
    throw invalid(PASSKEY_REQUEST_EXPIRED, undefined, {
      code: "passkey_request_expired",
    });
  const taken = await immediate(
    (tx) =>
      tx
        .delete(passkeyChallenges)
        .where(eq(passkeyChallenges.id, id))
        .returning(),
    { bookkeeping: true },
  );
  const row = taken[0];
  if (
    !row ||
    row.purpose !== purpose ||
    row.expiresAt <= now ||
    (row.userId ?? null) !== userId
  )
    throw invalid(PASSKEY_REQUEST_EXPIRED, undefined, {
      code: "passkey_request_expired",
    });
  return row.challenge;
}

/** The Set-Cookie that clears the challenge cookie once it is used. */
export const clearChallengeCookie = () =>
  challengeCookie.serialize("", { maxAge: 0, expires: new Date(0) });

export { challengeCookie as passkeyChallengeCookie };
