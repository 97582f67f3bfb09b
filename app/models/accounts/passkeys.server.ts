// Passkeys (docs/product-rules.md#passkeys): WebAuthn credentials beside the
// password, through @simplewebauthn/server
// (docs/decisions/1080-passkeys.md). What the server holds to:
// - a challenge is random, single use (its row is deleted as it is used),
//   bound to the browser that asked (a signed httpOnly cookie naming the row)
//   and alive five minutes (PASSKEY_CHALLENGE_TTL_S shortens it in tests);
// - the origin and RP ID are the site's own (PUBLIC_ORIGIN);
// - user verification is required;
// - a signature counter that goes backwards refuses the sign-in and mails
//   the person (a cloned authenticator is the likely cause);
// - a credential belongs to one account only (a unique index).
// Signing in with one counts in the password's limits (sign-in.server.ts).
// This file: the messages and the list on the security page; the challenges,
// adding one and signing in with one are in the passkey-*.server.ts beside it.
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { MAX_PASSKEYS, PASSKEY_NAME_MAX } from "~/domain/passkeys";
import type { Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { passkeyChallenges, passkeys } from "~/db/schema";
import { invalid, notFound } from "~/utils/errors";
import { fieldErrorsOf } from "~/utils/validation";

export { MAX_PASSKEYS, PASSKEY_NAME_MAX };
/** Adding a passkey without the password: only this soon after signing in. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

export const PASSKEY_REQUEST_EXPIRED =
  "This passkey request has expired. Please try again.";
export const PASSKEY_NOT_VERIFIED = "This passkey could not be verified.";
export const PASSKEY_UNKNOWN = "This passkey is not registered here.";
export const PASSKEY_TAKEN = "This passkey is already registered.";
export const TOO_MANY_PASSKEYS = `You can have at most ${MAX_PASSKEYS} passkeys. Remove one first.`;
export const PASSKEY_NOT_FOUND = "Passkey not found";
export const PASSWORD_NEEDED =
  "Enter your password to add a passkey (or sign in again).";

// ---- The list on the security page ------------------------------------------------------

export type PasskeySummary = {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export async function listPasskeys(userId: number): Promise<PasskeySummary[]> {
  return db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export const passkeyJson = (p: PasskeySummary) => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt ? p.lastUsedAt.toISOString() : null,
});

export const NameSchema = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(PASSKEY_NAME_MAX, `At most ${PASSKEY_NAME_MAX} characters`);

function parseId(id: unknown): number {
  const n = typeof id === "number" ? id : Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) throw notFound(PASSKEY_NOT_FOUND);
  return n;
}

/** Renames one of this person's passkeys; 404 for anyone else's. */
export async function renamePasskey(
  userId: number,
  id: unknown,
  name: unknown,
): Promise<void> {
  const parsed = NameSchema.safeParse(name);
  if (!parsed.success)
    throw invalid("Please correct the highlighted fields.", {
      name: fieldErrorsOf(parsed.error)[""] ?? [
        parsed.error.issues[0]?.message ?? "Name is required",
      ],
    });
  const passkeyId = parseId(id);
  const result = await immediate((tx) =>
    tx
      .update(passkeys)
      .set({ name: parsed.data })
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId))),
  );
  if (changedRows(result) !== 1) throw notFound(PASSKEY_NOT_FOUND);
}

/** Removes one of this person's passkeys; 404 for anyone else's. */
export async function removePasskey(userId: number, id: unknown) {
  const passkeyId = parseId(id);
  const result = await immediate((tx) =>
    tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId))),
  );
  if (changedRows(result) !== 1) throw notFound(PASSKEY_NOT_FOUND);
}

/** Closing an account: its passkeys and challenges go with it. */
export async function deletePasskeysOf(tx: Tx, userId: number) {
  await tx.delete(passkeys).where(eq(passkeys.userId, userId));
  await tx
    .delete(passkeyChallenges)
    .where(eq(passkeyChallenges.userId, userId));
}
