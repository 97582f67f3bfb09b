// Adding a passkey (docs/product-rules.md#passkeys): the options a browser
// is asked to create one with, and the check of what it answers. The rules
// the server holds to are listed in ./passkeys.server.ts.
import { count, eq } from "drizzle-orm";
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { MAX_PASSKEYS } from "~/domain/passkeys";
import type { Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { passkeys, sessions, type User } from "~/db/schema";
import { conflict, DomainError, invalid } from "~/utils/errors";
import { assertCurrentPassword } from "./account-security.server";
import type { PasskeySummary } from "./passkeys.server";
import {
  RECENT_SIGN_IN_MS,
  PASSKEY_NOT_VERIFIED,
  PASSKEY_TAKEN,
  TOO_MANY_PASSKEYS,
  PASSWORD_NEEDED,
  NameSchema,
} from "./passkeys.server";
import {
  relyingParty,
  issueChallenge,
  takeChallenge,
} from "./passkey-challenges.server";

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

export function transportsOf(text: string | null) {
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
