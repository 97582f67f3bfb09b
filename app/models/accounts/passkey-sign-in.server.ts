// Signing in with a passkey (docs/product-rules.md#passkeys): the options,
// the owner of an answered credential, and the check of its signature and
// counter. The rules the server holds to are listed in ./passkeys.server.ts.
import { resolveLanguage } from "~/domain/language";
import { messagesIn } from "~/messaging/activity-text.server";
import { and, eq, sql } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { db, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { passkeys, users, type User } from "~/db/schema";
import { renderMail } from "~/messaging/templates.server";
import { publicOrigin } from "~/utils/env-settings.server";
import { DomainError, invalid } from "~/utils/errors";
import { sendAccountMail } from "../notifications/outbox.server";
import { PASSKEY_NOT_VERIFIED, PASSKEY_UNKNOWN } from "./passkeys.server";
import {
  relyingParty,
  issueChallenge,
  takeChallenge,
} from "./passkey-challenges.server";
import { transportsOf } from "./passkey-registration.server";

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
  user: Pick<User, "id" | "email" | "username" | "language">,
  passkeyName: string,
) {
  const language = resolveLanguage({ saved: user.language });
  const t = messagesIn(language);
  const mail = renderMail({
    to: user.email,
    language,
    subject: t("email.passkey.subject"),
    paragraphs: [
      t("email.greeting", { name: user.username }),
      t("email.passkey.body", { name: passkeyName }),
    ],
    action: {
      label: t("email.passkey.action"),
      url: `${publicOrigin()}/profile/security`,
    },
    footer: t("email.securityNotice"),
  });
  void sendAccountMail(mail, user.id, "passkey counter").catch((error) =>
    console.error("passkey notice failed", String(error)),
  );
}
