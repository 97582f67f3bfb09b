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
import crypto from "node:crypto";
import { and, asc, count, eq, lt, sql } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { MAX_PASSKEYS, PASSKEY_NAME_MAX } from "~/domain/passkeys";
import type { Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import {
  passkeyChallenges,
  passkeys,
  sessions,
  users,
  type User,
} from "~/db/schema";
import { signedCookie } from "~/framework/signed-cookie.server";
import { renderMail } from "~/messaging/templates.server";
import {
  configuredOrigin,
  isProduction,
  passkeyChallengeTtlMs,
  publicOrigin,
  sessionSecret,
} from "~/utils/env.server";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { fieldErrorsOf } from "~/utils/validation";
import { sendAccountMail } from "../notifications/outbox.server";
import { assertCurrentPassword } from "./account-security.server";

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

type Purpose = "register" | "sign_in";

/** Stores a fresh challenge and answers the cookie that binds it to this browser. */
async function issueChallenge(
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
async function takeChallenge(
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

const NameSchema = z
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

// ---- Adding one ----------------------------------------------------------------------------

/** When the session this request carries began, if it is live. */
async function sessionStartedAt(sessionId: string | null) {
  if (!sessionId) return null;
  const row = (
    await db
      .select({ createdAt: sessions.createdAt })
      .from(sessions)
      .where(eq(sessions.publicId, sessionId))
      .limit(1)
  )[0];
  return row?.createdAt ?? null;
}

async function passkeyCount(userId: number, tx: Tx | typeof db = db) {
  const row = (
    await tx
      .select({ n: count() })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
  )[0];
  return Number(row?.n ?? 0);
}

/**
 * The options for the browser's `navigator.credentials.create`, and the
 * cookie binding the challenge to this browser. Needs the password, or a
 * sign-in within the last 10 minutes; 409 at 10 passkeys.
 */
export async function startPasskeyRegistration({
  user,
  input,
  sessionId,
  request,
  now = Date.now(),
}: {
  user: User;
  input: unknown;
  sessionId: string | null;
  request?: Request;
  now?: number;
}): Promise<{
  options: PublicKeyCredentialCreationOptionsJSON;
  setCookie: string;
}> {
  const password =
    input && typeof input === "object" && "password" in input
      ? input.password
      : undefined;
  if (typeof password === "string" && password !== "") {
    try {
      await assertCurrentPassword(user, password);
    } catch (error) {
      // The page's field is `password`.
      if (error instanceof DomainError && error.status === 400)
        throw invalid("Please correct the highlighted fields.", {
          password: ["Password is incorrect"],
        });
      throw error;
    }
  } else {
    const started = await sessionStartedAt(sessionId);
    if (!started || now - started.getTime() > RECENT_SIGN_IN_MS)
      throw invalid(
        PASSWORD_NEEDED,
        { password: [PASSWORD_NEEDED] },
        {
          code: "password_needed",
        },
      );
  }
  if ((await passkeyCount(user.id)) >= MAX_PASSKEYS)
    throw conflict(TOO_MANY_PASSKEYS);
  const { rpID, rpName } = relyingParty(request);
  const existing = await db
    .select({
      credentialId: passkeys.credentialId,
      transports: passkeys.transports,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.username,
    userID: new TextEncoder().encode(`fairshake-user-${user.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      transports: transportsOf(p.transports),
    })),
    authenticatorSelection: {
      residentKey: "required",
      userVerification: "required",
    },
  });
  const setCookie = await issueChallenge(
    options.challenge,
    "register",
    user.id,
    now,
  );
  return { options, setCookie };
}

function transportsOf(text: string | null) {
  if (!text) return undefined;
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list)
      ? (list.filter((t) => typeof t === "string") as AuthenticatorTransport[])
      : undefined;
  } catch {
    return undefined;
  }
}

const RegistrationSchema = z.object({
  response: z.looseObject({ id: z.string().min(1).max(1024) }),
  name: z.string().optional(),
});

/**
 * Checks the browser's answer against this browser's challenge and stores
 * the passkey. 400 for a spent, expired or foreign challenge or an answer
 * that fails (another origin, no user verification); 409 for a credential
 * already registered (here or to another account) or past 10.
 */
export async function finishPasskeyRegistration({
  user,
  input,
  cookieHeader,
  request,
  now = Date.now(),
}: {
  user: User;
  input: unknown;
  cookieHeader: string | null;
  request?: Request;
  now?: number;
}): Promise<PasskeySummary> {
  const parsed = RegistrationSchema.safeParse(input);
  if (!parsed.success) throw invalid(PASSKEY_NOT_VERIFIED);
  const name = parsed.data.name?.trim()
    ? NameSchema.safeParse(parsed.data.name)
    : null;
  if (name && !name.success)
    throw invalid("Please correct the highlighted fields.", {
      name: [name.error.issues[0]?.message ?? "Name is required"],
    });
  const expectedChallenge = await takeChallenge(
    cookieHeader,
    "register",
    user.id,
    now,
  );
  const { origin, rpID } = relyingParty(request);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: parsed.data.response as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch {
    throw invalid(PASSKEY_NOT_VERIFIED, undefined, {
      code: "passkey_not_verified",
    });
  }
  if (!verification.verified || !verification.registrationInfo)
    throw invalid(PASSKEY_NOT_VERIFIED, undefined, {
      code: "passkey_not_verified",
    });
  const { credential } = verification.registrationInfo;
  return immediate(async (tx) => {
    const n = await passkeyCount(user.id, tx);
    if (n >= MAX_PASSKEYS) throw conflict(TOO_MANY_PASSKEYS);
    const taken = await tx
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.credentialId, credential.id))
      .limit(1);
    if (taken.length > 0) throw conflict(PASSKEY_TAKEN);
    const row = (
      await tx
        .insert(passkeys)
        .values({
          userId: user.id,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey),
          signCount: credential.counter,
          transports: credential.transports
            ? JSON.stringify(credential.transports)
            : null,
          name: name?.data ?? `Passkey ${n + 1}`,
          createdAt: new Date(now),
        })
        .returning({
          id: passkeys.id,
          name: passkeys.name,
          createdAt: passkeys.createdAt,
          lastUsedAt: passkeys.lastUsedAt,
        })
    )[0]!;
    return row;
  });
}

// ---- Signing in with one ------------------------------------------------------------------

/**
 * The options for `navigator.credentials.get` (discoverable credentials:
 * no username, so no list of ids), and the cookie binding the challenge.
 */
export async function startPasskeySignIn({
  request,
  now = Date.now(),
}: { request?: Request; now?: number } = {}): Promise<{
  options: PublicKeyCredentialRequestOptionsJSON;
  setCookie: string;
}> {
  const { rpID } = relyingParty(request);
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: "required",
    allowCredentials: [],
  });
  const setCookie = await issueChallenge(
    options.challenge,
    "sign_in",
    null,
    now,
  );
  return { options, setCookie };
}

const AssertionSchema = z.looseObject({ id: z.string().min(1).max(1024) });

/** The passkey an assertion names and its owner, before it is checked. */
export async function passkeyOwner(response: unknown) {
  const parsed = AssertionSchema.safeParse(response);
  if (!parsed.success) throw invalid(PASSKEY_NOT_VERIFIED);
  const row = (
    await db
      .select({ passkey: passkeys, user: users })
      .from(passkeys)
      .innerJoin(users, eq(users.id, passkeys.userId))
      .where(eq(passkeys.credentialId, parsed.data.id))
      .limit(1)
  )[0];
  // A removed passkey, or one of a closed account.
  if (!row || row.user.deletedAt)
    throw new DomainError(401, PASSKEY_UNKNOWN, undefined, undefined, {
      code: "passkey_unknown",
    });
  return row;
}

/**
 * Checks a sign-in assertion against this browser's challenge and the
 * stored key; on success moves the counter and the last use. 401 for a
 * failed signature, a missing user verification, another origin, or a
 * counter that went backwards (the person is mailed).
 */
export async function verifyPasskeySignIn({
  owner,
  response,
  cookieHeader,
  request,
  now = Date.now(),
}: {
  owner: Awaited<ReturnType<typeof passkeyOwner>>;
  response: unknown;
  cookieHeader: string | null;
  request?: Request;
  now?: number;
}): Promise<User> {
  const expectedChallenge = await takeChallenge(
    cookieHeader,
    "sign_in",
    null,
    now,
  );
  const { passkey, user } = owner;
  const { origin, rpID } = relyingParty(request);
  const refused = () =>
    new DomainError(401, PASSKEY_NOT_VERIFIED, undefined, undefined, {
      code: "passkey_not_verified",
    });
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        // The counter is checked below, where a step back is mailed.
        counter: 0,
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: true,
    });
  } catch {
    throw refused();
  }
  if (!verification.verified) throw refused();
  const newCount = verification.authenticationInfo.newCounter;
  const stored = passkey.signCount;
  // Authenticators that keep no counter send 0 every time; any other must
  // move forwards, else this may be a copy of the key.
  if ((stored > 0 || newCount > 0) && newCount <= stored) {
    sendCounterWarning(user, passkey.name);
    throw new DomainError(401, PASSKEY_NOT_VERIFIED, undefined, undefined, {
      code: "passkey_counter",
    });
  }
  const moved = await immediate((tx) =>
    tx
      .update(passkeys)
      .set({ signCount: newCount, lastUsedAt: new Date(now) })
      // Conditional: two uses of one count cannot both pass.
      .where(
        and(
          eq(passkeys.id, passkey.id),
          sql`${passkeys.signCount} = ${stored}`,
        ),
      ),
  );
  if (changedRows(moved) !== 1) throw refused();
  return user;
}

/** A security notice: a passkey's counter went backwards. */
function sendCounterWarning(
  user: Pick<User, "id" | "email" | "username">,
  passkeyName: string,
) {
  const mail = renderMail({
    to: user.email,
    subject: "A Fairshake passkey sign-in was refused",
    paragraphs: [
      `Hi ${user.username},`,
      `Someone tried to sign in with your passkey "${passkeyName}", and its signature counter went backwards. This can mean the passkey was copied, so we refused the sign-in. If you did not try to sign in just now, remove that passkey on your Security page and change your password.`,
    ],
    action: {
      label: "Open Security",
      url: `${publicOrigin()}/profile/security`,
    },
    footer: "A security notice: it goes to the address that was on file.",
  });
  void sendAccountMail(mail, user.id, "passkey counter").catch((error) =>
    console.error("passkey notice failed", String(error)),
  );
}

export { challengeCookie as passkeyChallengeCookie };
