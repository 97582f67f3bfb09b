// Password reset (docs/product-rules.md#accounts, docs/decisions/0900-password-reset-and-sessions.md). 'Forgot password' asks for a
// username or an email and always answers the same, in the same time: the
// request only checks its limits and queues the login; the lookup, the token
// and the mail happen after the answer has gone, so a matched and an
// unmatched request do the same work while anyone waits. The link
// /reset-password?token=… lasts an hour and works once. It goes to the last
// address a link verified (a new address still unproven could be anyone's),
// and it dies when the password or the address changes (voidResetLinks).
// Tokens are random; only their SHA-256 is stored, in email_tokens with
// purpose 'reset_password'.
import { resolveLanguage } from "~/domain/language";
import { messagesIn } from "~/messaging/activity-text.server";
import crypto from "node:crypto";
import { hashToken } from "./token-hash.server";
import { and, count, eq, gt, isNull, sql } from "drizzle-orm";
import { db, immediate } from "~/db/transactions.server";
import { emailTokens, users, type User } from "~/db/schema";
import { renderMail } from "~/messaging/templates.server";
import { passwordResetTtlMs, publicOrigin } from "~/utils/env-settings.server";
import { invalid } from "~/utils/errors";
import { AbuseLimit, takeTogether } from "../requests/abuse-limits.server";
import { sendAccountMail } from "../notifications/outbox.server";
import { revokeOtherSessions } from "./session.server";
import { hashPassword, writePasswordHash } from "./user.server";
import { NewPasswordSchema } from "./user-input.server";

/** How long a reset link works (PASSWORD_RESET_TTL_S shortens it in tests). */
const RESET_TTL_MS = passwordResetTtlMs();
/** At most this many reset mails per account per hour, however they are asked for. */
export const RESET_MAILS_PER_HOUR = 3;
const MAIL_WINDOW_MS = 60 * 60_000;

export const RESET_REQUESTED =
  "If an account matches, we sent a reset link to its email.";
export const BAD_RESET_LINK = "This reset link is invalid or has expired.";
/** The refusal of a dead or spent link (code bad_reset_link). */
export const badResetLink = () =>
  invalid(BAD_RESET_LINK, undefined, { code: "bad_reset_link" });
export const TOO_MANY_RESETS =
  "Too many reset requests. Please wait a few minutes and try again.";
const LOGIN_REQUIRED = "Enter your username or email";

// Both limits answer 429 whether or not an account matches, so neither tells
// anything about who has an account. The per-account cap on mails is silent
// for that reason (see requestPasswordReset).
/** Per client address: a person who forgets twice is fine, a script is not. */
const resetsPerAddress = new AbuseLimit({
  name: "resets-per-address",
  limit: 10,
  windowMs: 15 * 60_000,
  message: TOO_MANY_RESETS,
});
/** Per login as typed (normalised): the same name asked for over and over. */
const resetsPerLogin = new AbuseLimit({
  name: "resets-per-login",
  limit: 5,
  windowMs: 15 * 60_000,
  message: TOO_MANY_RESETS,
});

const normaliseLogin = (login: string) =>
  login.normalize("NFKC").trim().toLowerCase();

/**
 * 'Forgot password': 202 whatever the login names; 400 when none was typed;
 * 429 past a limit. Never waits on the database lookup or on mail.
 */
export async function requestPasswordReset({
  login,
  clientAddress,
}: {
  login: unknown;
  clientAddress: string;
}) {
  if (typeof login !== "string" || login.trim() === "")
    throw invalid("Please correct the highlighted fields.", {
      login: [LOGIN_REQUIRED],
    });
  if (login.length > 254)
    throw invalid("Please correct the highlighted fields.", {
      login: ["Enter at most 254 characters"],
    });
  const key = normaliseLogin(login);
  await takeTogether([
    [resetsPerAddress, [clientAddress]],
    [resetsPerLogin, [key]],
  ]);
  enqueue(login);
}

// --- After the answer: lookup, token, mail ------------------------------------

const MAX_QUEUED = 1_000;
const queue: string[] = [];
let draining = false;

function enqueue(login: string) {
  // The limits above keep this short; a flood past them is dropped, not kept.
  if (queue.length >= MAX_QUEUED) return;
  queue.push(login);
  if (draining) return;
  draining = true;
  // A moment after this request's answer has been written.
  setTimeout(drain, 10);
}

async function drain() {
  try {
    for (let login = queue.shift(); login; login = queue.shift()) {
      try {
        await mailResetLink(login);
      } catch (error) {
        console.error("password reset failed", String(error));
      }
    }
  } finally {
    draining = false;
  }
}

async function findAccount(login: string): Promise<User | null> {
  return (
    (
      await db
        .select()
        .from(users)
        .where(
          and(
            isNull(users.deletedAt),
            sql`(lower(${users.username}) = lower(${login}) or lower(${users.email}) = lower(${login}))`,
          ),
        )
        .limit(1)
    )[0] ?? null
  );
}

/** Makes a link and mails it, unless this account had its share this hour. */
export async function mailResetLink(login: string, now = Date.now()) {
  const user = await findAccount(login.normalize("NFKC").trim());
  if (!user) return false;
  const token = crypto.randomBytes(32).toString("base64url");
  // While a new address waits for its link, the last proven one gets the
  // mail: a session that changed the address cannot also take the account.
  const to = user.verifiedEmail ?? user.email;
  // Counted and written in one immediate transaction: a storm across worker
  // processes still mails at most RESET_MAILS_PER_HOUR.
  const issued = await immediate(async (tx) => {
    const recent = (
      await tx
        .select({ n: count() })
        .from(emailTokens)
        .where(
          and(
            eq(emailTokens.userId, user.id),
            eq(emailTokens.purpose, "reset_password"),
            gt(emailTokens.createdAt, new Date(now - MAIL_WINDOW_MS)),
          ),
        )
        .limit(1)
    )[0];
    if ((recent?.n ?? 0) >= RESET_MAILS_PER_HOUR) return false;
    await tx.insert(emailTokens).values({
      userId: user.id,
      purpose: "reset_password",
      tokenHash: hashToken(token),
      email: to,
      expiresAt: now + RESET_TTL_MS,
      createdAt: new Date(now),
    });
    return true;
  });
  if (!issued) return false;
  const minutes = Math.round(RESET_TTL_MS / 60_000);
  const language = resolveLanguage({ saved: user.language });
  const t = messagesIn(language);
  const mail = renderMail({
    to,
    language,
    subject: t("email.reset.subject"),
    paragraphs: [
      t("email.greeting", { name: user.username }),
      t("email.reset.body", { minutes }),
    ],
    action: {
      label: t("email.reset.action"),
      url: `${publicOrigin()}/reset-password?token=${token}`,
    },
    footer: t("email.reset.why"),
  });
  void sendAccountMail(mail, user.id, "password reset").catch((error) =>
    console.error("reset mail failed", String(error)),
  );
  return true;
}

// --- Using the link -------------------------------------------------------------

function tokenShapeOk(token: unknown): token is string {
  return (
    typeof token === "string" &&
    token.length >= 20 &&
    token.length <= 100 &&
    /^[A-Za-z0-9_-]+$/.test(token)
  );
}

/** The live reset row a token names (a changed password or address voided the rest). */
async function liveToken(token: string, now: number) {
  return (
    (
      await db
        .select({
          id: emailTokens.id,
          userId: emailTokens.userId,
          email: emailTokens.email,
        })
        .from(emailTokens)
        .innerJoin(users, eq(users.id, emailTokens.userId))
        .where(
          and(
            eq(emailTokens.tokenHash, hashToken(token)),
            eq(emailTokens.purpose, "reset_password"),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, now),
            isNull(users.deletedAt),
          ),
        )
        .limit(1)
    )[0] ?? null
  );
}

/** Whether the link still works (the page shows the form or says it does not). */
export async function resetLinkIsLive(
  token: unknown,
  now = Date.now(),
): Promise<boolean> {
  return tokenShapeOk(token) && (await liveToken(token, now)) !== null;
}

/**
 * Sets a new password from a reset link: every session of the account ends,
 * the address is verified (the link reached it), the link and any other live
 * reset link of the account stop working. The caller signs this browser in.
 * 400 'This reset link is invalid or has expired.' or password field errors.
 */
export async function confirmPasswordReset(
  { token, password }: { token: unknown; password: unknown },
  now = Date.now(),
): Promise<User> {
  if (!tokenShapeOk(token) || !(await liveToken(token, now)))
    throw badResetLink();
  const parsed = NewPasswordSchema.safeParse(password);
  if (!parsed.success)
    throw invalid("Please correct the highlighted fields.", {
      password: [parsed.error.issues[0]?.message ?? "Password is required"],
    });
  const passwordHash = await hashPassword(parsed.data);
  const user = await immediate(async (tx) => {
    // Checked again inside the transaction: of two uses at once, one wins.
    const row = await liveToken(token, now);
    if (!row) return null;
    // Ends this link and every other one still out.
    const updated = await writePasswordHash(tx, row.userId, passwordHash, {
      provenEmail: row.email,
    });
    await revokeOtherSessions(row.userId, null);
    return updated;
  });
  if (!user) throw badResetLink();
  sendPasswordChangedNotice(user);
  return user;
}

/** A security notice to the address on file (docs/product-rules.md#notifications), after a reset or a change. */
export function sendPasswordChangedNotice(
  user: Pick<User, "id" | "email" | "username" | "language">,
) {
  const language = resolveLanguage({ saved: user.language });
  const t = messagesIn(language);
  const mail = renderMail({
    to: user.email,
    language,
    subject: t("email.passwordChanged.subject"),
    paragraphs: [
      t("email.greeting", { name: user.username }),
      t("email.passwordChanged.body"),
    ],
    action: {
      label: t("email.passwordChanged.action"),
      url: `${publicOrigin()}/forgot-password`,
    },
    footer: t("email.securityNotice"),
  });
  void sendAccountMail(mail, user.id, "password changed").catch((error) =>
    console.error("password notice failed", String(error)),
  );
}
