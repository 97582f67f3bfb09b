// Profiles (docs/product-rules.md#forms-and-messages): username, email and picture changes, and the
// payment-method flags. Split from user.server.ts, which keeps registration,
// credentials and the public views.
import { isCurrency, UNKNOWN_CURRENCY, type Currency } from "~/domain/currency";
import { isLanguage, UNKNOWN_LANGUAGE, type Language } from "~/domain/language";
import { and, asc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "~/db/connections.server";
import { immediate } from "~/db/transactions.server";
import { avatars, emailChanges, users, type User } from "~/db/schema";
import { TooManyRequestsError } from "~/utils/rate-limit.server";
import { assertCurrentPassword } from "./account-security.server";
import { DomainError, invalid } from "~/utils/errors";
import { usernameSkeleton } from "~/utils/username-skeleton.server";
import {
  isReservedUsername,
  RESERVED_USERNAME_MESSAGE,
} from "~/domain/deleted-user";
import { assertAccountOpen } from "./closed-account.server";
import { emailChanged } from "./email-verification.server";
import { fieldErrorsOf, maxChars } from "~/utils/validation";
import {
  EMAIL_TAKEN,
  emailTaken,
  takenError,
  getUserById,
  uniqueViolation,
  usernameRefusal,
  voidResetLinks,
} from "./user.server";
import { EMAIL_SHAPE } from "./user-input.server";
import { USERNAME_MAX, USERNAME_MIN } from "../../domain/user";

// --- Profile (profile rules, docs/product-rules.md#forms-and-messages) ---------------------------------------

export const AVATAR_URL_MAX = 2048;
const PROFILE_EMAIL_MESSAGE = "Please enter a valid email address";
const AVATAR_URL_MESSAGE = "Please enter a valid URL";
/** The path of an avatar stored by upload: `/avatars/{id}?v={etag}`. */
export const OWN_AVATAR_PATH = /^\/avatars\/(\d+)(\?v=[A-Za-z0-9_-]{1,64})?$/;

function isWebUrl(value: string) {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

export const ProfileUpdateSchema = z.object({
  username: z
    .string({ error: "Username must be at least 3 characters" })
    .trim()
    .normalize("NFKC")
    .min(USERNAME_MIN, "Username must be at least 3 characters")
    .superRefine(
      maxChars(USERNAME_MAX, "Username must be less than 50 characters"),
    )
    .regex(
      /^[\p{L}\p{N}_.-]*$/u,
      "Username may use only letters, numbers, '.', '-' and '_'",
    )
    .refine((name) => !isReservedUsername(name), RESERVED_USERNAME_MESSAGE)
    .optional(),
  email: z
    .string({ error: PROFILE_EMAIL_MESSAGE })
    .trim()
    .max(254, PROFILE_EMAIL_MESSAGE)
    .regex(EMAIL_SHAPE, PROFILE_EMAIL_MESSAGE)
    .optional(),
  // Product rules: an empty avatar is sent as null.
  avatarUrl: z
    .preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? null : v),
      z
        .string({ error: AVATAR_URL_MESSAGE })
        .trim()
        .max(AVATAR_URL_MAX, AVATAR_URL_MESSAGE)
        .refine(
          (v) => isWebUrl(v) || OWN_AVATAR_PATH.test(v),
          AVATAR_URL_MESSAGE,
        )
        .nullable(),
    )
    .optional(),
  // A new bet's currency unless they pick another (docs/product-rules.md#currencies).
  currency: z
    .string({ error: UNKNOWN_CURRENCY })
    .refine(isCurrency, UNKNOWN_CURRENCY)
    .transform((c) => c as Currency)
    .optional(),
  // Pages, emails and pushes in it (docs/product-rules.md#languages).
  language: z
    .string({ error: UNKNOWN_LANGUAGE })
    .refine(isLanguage, UNKNOWN_LANGUAGE)
    .transform((l) => l as Language)
    .optional(),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/**
 * Keeps only the fields that differ from the user's current values (product rules:
 * only changed fields are sent); an empty avatar reads as null.
 */
export function changedProfileFields(
  user: Pick<User, "username" | "email" | "avatarUrl"> &
    Partial<Pick<User, "currency" | "language">>,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [
    "username",
    "email",
    "avatarUrl",
    "currency",
    "language",
  ] as const) {
    if (!(key in input) || input[key] === undefined) continue;
    let value = input[key];
    if (typeof value === "string") value = value.trim();
    if (key === "avatarUrl" && value === "") value = null;
    if (value !== user[key]) out[key] = value;
  }
  return out;
}

/**
 * Applies the changed profile fields. 400 'Validation Error' with field
 * errors, 409 'Username already taken' / 'Email already registered'.
 * Returns the user and the names of the fields that changed.
 */
export async function updateProfile({
  userId,
  input,
  now = Date.now(),
}: {
  userId: number;
  input: Record<string, unknown>;
  now?: number;
}): Promise<{ user: User; changed: string[] }> {
  const current = await getUserById(userId);
  if (!current) throw new DomainError(401, "Authentication required");
  const changes = changedProfileFields(current, input);
  const parsed = ProfileUpdateSchema.safeParse(changes);
  if (!parsed.success)
    throw invalid("Validation Error", fieldErrorsOf(parsed.error));
  const values = Object.fromEntries(
    Object.entries(parsed.data).filter(([, v]) => v !== undefined),
  ) as ProfileUpdate;
  // A username differing only in letter case is still a change, but never "taken" by oneself.
  if (values.username === current.username) delete values.username;
  if (values.email === current.email) delete values.email;
  if (values.avatarUrl === current.avatarUrl) delete values.avatarUrl;
  if (values.currency === current.currency) delete values.currency;
  if (values.language === current.language) delete values.language;
  const changed = Object.keys(values);
  if (changed.length === 0) return { user: current, changed };
  if (values.avatarUrl && OWN_AVATAR_PATH.test(values.avatarUrl)) {
    const owner = Number(OWN_AVATAR_PATH.exec(values.avatarUrl)![1]);
    if (owner !== userId)
      throw invalid("Validation Error", { avatarUrl: [AVATAR_URL_MESSAGE] });
  }
  // A stolen session must not be able to move the account's mail (and with
  // it every reset link) elsewhere: the address needs the password.
  if (values.email) await assertCurrentPassword(current, input.currentPassword);
  try {
    const user = await immediate(async (tx) => {
      await assertAccountOpen(tx, userId);
      if (values.email) await recordEmailChange(tx, userId, now);
      const refusal =
        values.username && (await usernameRefusal(values.username, userId));
      if (refusal) throw takenError(refusal);
      if (values.email && (await emailTaken(values.email, userId)))
        throw takenError(EMAIL_TAKEN);
      // An avatar replaced by a link (or removed) frees the stored image.
      if (
        "avatarUrl" in values &&
        !OWN_AVATAR_PATH.test(values.avatarUrl ?? "")
      )
        await tx.delete(avatars).where(eq(avatars.userId, userId));
      return (
        await tx
          .update(users)
          .set({
            ...values,
            ...(values.username && {
              usernameSkeleton: usernameSkeleton(values.username),
            }),
            // docs/product-rules.md#accounts: a new address is unverified until its link is used.
            ...(values.email && { emailVerified: false }),
          })
          .where(eq(users.id, userId))
          .returning()
      )[0]!;
    });
    if (values.email) await emailChanged(user, current.email);
    return { user, changed };
  } catch (error) {
    throw (
      (await uniqueViolation(error, { username: values.username, userId })) ??
      error
    );
  }
}

/** At most this many address changes per account per hour (each mails two addresses). */
export const EMAIL_CHANGES_PER_HOUR = 3;
export const TOO_MANY_EMAIL_CHANGES =
  "You have changed your email several times in the last hour. Please try again later.";
const EMAIL_CHANGE_WINDOW_MS = 60 * 60_000;

/**
 * Counts this change against the hourly cap, in the change's own
 * transaction (so two processes share one count), and ends every reset link
 * still out: for good, so changing the address back revives none. 429 with
 * Retry-After past the cap. A product rule: RATE_LIMITS=off does not lift it.
 */
async function recordEmailChange(tx: Tx, userId: number, now: number) {
  const since = new Date(now - EMAIL_CHANGE_WINDOW_MS);
  const recent = await tx
    .select({ at: emailChanges.createdAt })
    .from(emailChanges)
    .where(
      and(eq(emailChanges.userId, userId), gt(emailChanges.createdAt, since)),
    )
    .orderBy(asc(emailChanges.createdAt));
  if (recent.length >= EMAIL_CHANGES_PER_HOUR) {
    const freeAt = recent[0]!.at.getTime() + EMAIL_CHANGE_WINDOW_MS;
    throw new TooManyRequestsError(
      TOO_MANY_EMAIL_CHANGES,
      Math.max(1, Math.ceil((freeAt - now) / 1000)),
    );
  }
  await tx.insert(emailChanges).values({ userId, createdAt: new Date(now) });
  await voidResetLinks(tx, userId, now);
}

// --- Payment-method flags (docs/product-rules.md#statuses: a request sends the new state) ---------

export const PAYMENT_METHODS = [
  "applePay",
  "googleWallet",
  "paypal",
  "venmo",
  "zelle",
  "card",
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  applePay: "Apple Pay",
  googleWallet: "Google Wallet",
  paypal: "PayPal",
  venmo: "Venmo",
  zelle: "Zelle",
  card: "Card",
};

const PAYMENT_COLUMNS = {
  applePay: "applePayConnected",
  googleWallet: "googleWalletConnected",
  paypal: "paypalConnected",
  venmo: "venmoConnected",
  zelle: "zelleConnected",
  card: "cardConnected",
} as const satisfies Record<PaymentMethod, keyof User>;

export const PaymentMethodSchema = z.object({
  method: z.enum(PAYMENT_METHODS, { error: "Unknown payment method" }),
  connected: z.boolean({ error: "connected must be true or false" }),
});

/** Each payment method, its label and whether this user has it connected. */
export function paymentMethodsOf(user: User) {
  return PAYMENT_METHODS.map((method) => ({
    method,
    label: PAYMENT_METHOD_LABELS[method],
    connected: user[PAYMENT_COLUMNS[method]],
  }));
}

/** What the Edit Profile forms start from (the dialog and its page). */
export function profileFormUser(user: User) {
  return {
    username: user.username,
    email: user.email,
    avatarUrl: user.avatarUrl,
    currency: user.currency,
  };
}

/** Sets one payment-method flag to the state the request sends. */
export async function setPaymentMethod({
  userId,
  input,
}: {
  userId: number;
  input: unknown;
}): Promise<User> {
  const parsed = PaymentMethodSchema.safeParse(input);
  if (!parsed.success)
    throw new DomainError(
      400,
      parsed.error.issues[0]?.message ?? "Unknown payment method",
      fieldErrorsOf(parsed.error),
      "Failed to update payment method",
    );
  const { method, connected } = parsed.data;
  // A change the person asked for, not bookkeeping: a repeat under its key
  // with the other value must not make it (docs/product-rules.md#repeats).
  return (
    await immediate((tx) =>
      tx
        .update(users)
        .set({ [PAYMENT_COLUMNS[method]]: connected })
        .where(eq(users.id, userId))
        .returning(),
    )
  )[0]!;
}
