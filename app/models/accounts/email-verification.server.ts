// Email verification (docs/product-rules.md#accounts). A link /verify-email?token=… goes to the
// address on registration and on every change of it; it lasts 24 hours and
// works once. Notification mail goes only to a verified address (docs/product-rules.md#notifications).
// Tokens are random; only their SHA-256 is stored, with the address they were
// sent to, so a link for an address the user has since left opens nothing.
import crypto from "node:crypto";
import { hashToken } from "./token-hash.server";
import { and, eq, gt, isNull } from "drizzle-orm";
import { immediate } from "~/db/transactions.server";
import { emailTokens, users, type User } from "~/db/schema";
import { resolveLanguage } from "~/domain/language";
import { messagesIn } from "~/messaging/activity-text.server";
import { renderMail } from "~/messaging/templates.server";
import { publicOrigin } from "~/utils/env-settings.server";
import { invalid } from "~/utils/errors";
import { AbuseLimit } from "../requests/abuse-limits.server";
import { sendAccountMail } from "../notifications/outbox.server";

const VERIFY_TTL_MS = 24 * 60 * 60_000;
export const BAD_VERIFY_LINK = "This link is invalid or has expired.";
export const TOO_MANY_RESENDS =
  "We sent you a link a moment ago. Please check your inbox, or try again in a few minutes.";

const resends = new AbuseLimit({
  name: "verification-resends",
  limit: 3,
  windowMs: 15 * 60_000,
  message: TOO_MANY_RESENDS,
});

/** Mails a new link to the user's address. Never throws: account mail must not fail the request. */
export async function sendVerificationEmail(
  user: Pick<User, "id" | "email" | "username" | "language">,
  now = Date.now(),
) {
  const token = crypto.randomBytes(32).toString("base64url");
  await immediate(
    (tx) =>
      tx.insert(emailTokens).values({
        userId: user.id,
        purpose: "verify_email",
        tokenHash: hashToken(token),
        email: user.email,
        expiresAt: now + VERIFY_TTL_MS,
      }),
    { bookkeeping: true },
  );
  const url = `${publicOrigin()}/verify-email?token=${token}`;
  // In the person's saved language (English for accounts older than
  // languages), as every mail is.
  const language = resolveLanguage({ saved: user.language });
  const t = messagesIn(language);
  const mail = renderMail({
    to: user.email,
    language,
    subject: t("email.verify.subject"),
    paragraphs: [
      t("email.greeting", { name: user.username }),
      t("email.verify.body"),
    ],
    action: { label: t("email.verify.action"), url },
    footer: t("email.verify.why"),
  });
  void sendAccountMail(mail, user.id, "verification").catch((error) =>
    console.error("verification mail failed", String(error)),
  );
}

/** A second link, at most 3 in 15 minutes; nothing is sent to a verified address. */
export async function resendVerificationEmail(user: User) {
  await resends.take([`user:${user.id}`]);
  if (!user.emailVerified) await sendVerificationEmail(user);
}

/** Marks the address verified. 400 'This link is invalid or has expired.' */
export async function verifyEmailToken(
  token: unknown,
  now = Date.now(),
): Promise<User> {
  if (typeof token !== "string" || token.length < 20 || token.length > 100)
    throw invalid(BAD_VERIFY_LINK);
  const user = await immediate(async (tx) => {
    const row = (
      await tx
        .select()
        .from(emailTokens)
        .where(
          and(
            eq(emailTokens.tokenHash, hashToken(token)),
            eq(emailTokens.purpose, "verify_email"),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, now),
          ),
        )
        .limit(1)
    )[0];
    if (!row) return null;
    await tx
      .update(emailTokens)
      .set({ usedAt: now })
      .where(eq(emailTokens.id, row.id));
    // Only for the address the link was sent to.
    return (
      (
        await tx
          .update(users)
          .set({ emailVerified: true, verifiedEmail: row.email })
          .where(and(eq(users.id, row.userId), eq(users.email, row.email)))
          .returning()
      )[0]! ?? null
    );
  });
  if (!user) throw invalid(BAD_VERIFY_LINK);
  return user;
}

/** docs/product-rules.md#accounts: a changed address is unverified; a link goes to it and a notice to the old one. */
export async function emailChanged(
  user: Pick<User, "id" | "email" | "username" | "language">,
  oldEmail: string,
) {
  await sendVerificationEmail(user);
  const language = resolveLanguage({ saved: user.language });
  const t = messagesIn(language);
  const mail = renderMail({
    to: oldEmail,
    language,
    subject: t("email.changed.subject"),
    paragraphs: [
      t("email.greeting", { name: user.username }),
      t("email.changed.body", { email: user.email }),
    ],
    action: {
      label: t("email.changed.action"),
      url: `${publicOrigin()}/profile`,
    },
    footer: t("email.securityNotice"),
  });
  void sendAccountMail(mail, user.id, "email changed").catch((error) =>
    console.error("email-change notice failed", String(error)),
  );
}
