// Users: registration, credentials, public views. The only module that
// reads or writes password hashes.
import { DEFAULT_CURRENCY, type Currency } from "~/domain/currency";
import { DEFAULT_LANGUAGE, type Language } from "~/domain/language";
import { hash, verify } from "@node-rs/argon2";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { emailTokens, users, type User } from "~/db/schema";
import { violatedUniqueIndex } from "~/db/unique-violation.server";
import type { PublicUser } from "~/domain/user";
import { conflict, DomainError, invalid } from "~/utils/errors";
import { usernameSkeleton } from "~/utils/username-skeleton.server";
import { displayName } from "./display-name.server";
import { fieldErrorsOf } from "~/utils/validation";
import { RegisterSchema } from "./user-input.server";
import { PASSWORD_MAX } from "../../domain/user";

// OWASP's argon2id floor: 46 MiB, 1 pass, 1 lane. @node-rs/argon2 hashes on
// libuv's thread pool, so a login never blocks the event loop.
const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable here)
  memoryCost: 47_104,
  timeCost: 1,
  parallelism: 1,
} as const;

/** The signed-in user's own view (docs/api.md): never a password or hash. */
export function toUserJson(user: User) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    emailVerified: user.emailVerified,
    avatarUrl: user.avatarUrl,
    createdAt: user.createdAt.toISOString(),
    winCount: user.winCount,
    lossCount: user.lossCount,
    currency: user.currency,
    // Never saved (an account older than languages): English, as their mail.
    language: user.language ?? DEFAULT_LANGUAGE,
    paymentMethods: {
      applePayConnected: user.applePayConnected,
      googleWalletConnected: user.googleWalletConnected,
      paypalConnected: user.paypalConnected,
      venmoConnected: user.venmoConnected,
      zelleConnected: user.zelleConnected,
      cardConnected: user.cardConnected,
    },
  };
}

/** What anyone else may see of a user: a closed account is 'Deleted user'. */
export function toPublicUser(
  user: PublicUser & { deletedAt?: Date | null },
): PublicUser {
  return {
    id: user.id,
    username: displayName(user),
    avatarUrl: user.avatarUrl,
    winCount: user.winCount,
    lossCount: user.lossCount,
  };
}

export async function getUserById(id: number): Promise<User | null> {
  return (
    (await db.select().from(users).where(eq(users.id, id)).limit(1))[0] ?? null
  );
}

export async function getPublicUser(id: number): Promise<PublicUser | null> {
  const user = await getUserById(id);
  return user ? toPublicUser(user) : null;
}

export async function findUserByUsername(
  username: string,
): Promise<User | null> {
  return (
    (
      await db
        .select()
        .from(users)
        .where(
          and(
            sql`lower(${users.username}) = lower(${username})`,
            // A closed account cannot be signed into, whatever its hash.
            isNull(users.deletedAt),
          ),
        )
        .limit(1)
    )[0] ?? null
  );
}

export async function emailTaken(email: string, exceptUserId?: number) {
  const row = (
    await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1)
  )[0];
  return row !== undefined && row.id !== exceptUserId;
}

export const USERNAME_TAKEN = "Username already taken";
export const USERNAME_LOOKS_TAKEN =
  "This username looks too much like another user's. Please choose another.";

/** Why `username` cannot be had (the same name in any case, or a look-alike), or null. */
export async function usernameRefusal(username: string, exceptUserId?: number) {
  const row = (
    await db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(
        or(
          sql`lower(${users.username}) = lower(${username})`,
          eq(users.usernameSkeleton, usernameSkeleton(username)),
        ),
      )
  ).find((r) => r.id !== exceptUserId);
  if (!row) return null;
  return row.username.toLowerCase() === username.toLowerCase()
    ? USERNAME_TAKEN
    : USERNAME_LOOKS_TAKEN;
}

export const EMAIL_TAKEN = "Email already registered";

/** A name or an address somebody else has: 409, with its code and field. */
export function takenError(message: string): DomainError {
  const [code, field] =
    message === EMAIL_TAKEN
      ? ["email_taken", "email"]
      : message === USERNAME_LOOKS_TAKEN
        ? ["username_look_alike", "username"]
        : ["username_taken", "username"];
  return conflict(message, undefined, { code, field });
}

/** The database's unique indexes decide a race the checks above lost. */
export async function uniqueViolation(
  error: unknown,
  wanted: { username?: string; userId?: number } = {},
): Promise<DomainError | null> {
  switch (violatedUniqueIndex(error)) {
    case "users_username_unique":
      return takenError(USERNAME_TAKEN);
    case "users_username_skeleton_unique":
      // The very same name shares the skeleton too: the winner of the race
      // is committed now, so say which of the two it is.
      return takenError(
        (wanted.username &&
          (await usernameRefusal(wanted.username, wanted.userId))) ||
          USERNAME_LOOKS_TAKEN,
      );
    case "users_email_unique":
      return takenError(EMAIL_TAKEN);
    default:
      return null;
  }
}

/**
 * Rows written before skeletons existed get theirs at start-up. Two old
 * look-alikes keep their names; the second simply has none stored.
 */
export async function fillUsernameSkeletons() {
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    // A closed account's `deleted-{id}` needs no skeleton: no new name may
    // start with 'deleted-'.
    .where(and(isNull(users.usernameSkeleton), isNull(users.deletedAt)));
  for (const row of rows) {
    try {
      await immediate(
        (tx) =>
          tx
            .update(users)
            .set({ usernameSkeleton: usernameSkeleton(row.username) })
            .where(eq(users.id, row.id)),
        { bookkeeping: true },
      );
    } catch (error) {
      if (!(await uniqueViolation(error))) throw error;
    }
  }
}

export const hashPassword = (password: string) =>
  hash(password, ARGON2_OPTIONS);

/** Registers a user. Throws 400 with field errors or 409 when taken. */
export async function registerUser(
  input: unknown,
  {
    currency = DEFAULT_CURRENCY,
    language = DEFAULT_LANGUAGE,
  }: { currency?: Currency; language?: Language } = {},
): Promise<User> {
  const parsed = RegisterSchema.safeParse(input);
  if (!parsed.success)
    throw invalid(
      "Please correct the highlighted fields.",
      fieldErrorsOf(parsed.error),
    );
  const { username, email, password } = parsed.data;
  const refusal = await usernameRefusal(username);
  if (refusal) throw takenError(refusal);
  if (await emailTaken(email)) throw takenError(EMAIL_TAKEN);
  const passwordHash = await hashPassword(password);
  try {
    return (
      await immediate(
        (tx) =>
          tx
            .insert(users)
            .values({
              username,
              usernameSkeleton: usernameSkeleton(username),
              email,
              passwordHash,
              currency,
              language,
            })
            .returning(),
        { bookkeeping: true },
      )
    )[0]!;
  } catch (error) {
    throw (await uniqueViolation(error, { username })) ?? error;
  }
}

// A real hash to verify against when the user does not exist, so an unknown
// username costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;

/** The same answer for an unknown user and a wrong password. */
export async function verifyLogin(
  username: string,
  password: string,
): Promise<User | null> {
  const user = await findUserByUsername(username);
  if (!user) {
    await verify(
      await (dummyHash ??= hashPassword("not-a-real-password")),
      password,
    ).catch(() => false);
    return null;
  }
  const ok = await verify(user.passwordHash, password).catch(() => false);
  return ok ? user : null;
}

/**
 * Whether `password` is this user's (changing the password and closing the
 * account ask for it). A closed account's hash is not a hash at all, so
 * nothing ever matches it.
 */
export async function passwordMatches(
  user: Pick<User, "passwordHash">,
  password: string,
): Promise<boolean> {
  if (password.length > PASSWORD_MAX) return false;
  return verify(user.passwordHash, password).catch(() => false);
}

/**
 * Ends every reset link of the account that is still out (a password or an
 * address changed): for good, so changing back revives none.
 */
export async function voidResetLinks(tx: Tx, userId: number, now = Date.now()) {
  await tx
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, "reset_password"),
        isNull(emailTokens.usedAt),
      ),
    );
}

/** What a closed account stores instead of a hash: no password verifies. */
export const CLOSED_ACCOUNT_HASH = "!closed-account";

/**
 * Stores a new password hash, inside the caller's transaction (a reset or a
 * change also ends sessions there). Every reset link still out dies with the
 * old password. `provenEmail` is the address a reset link reached: it becomes
 * the last verified one, and verifies the account's address if it is that
 * one. A closed account is never given a password again.
 */
export async function writePasswordHash(
  tx: Tx,
  userId: number,
  passwordHash: string,
  { provenEmail }: { provenEmail?: string } = {},
): Promise<User | null> {
  await voidResetLinks(tx, userId);
  return (
    (
      await tx
        .update(users)
        .set({
          passwordHash,
          ...(provenEmail !== undefined && {
            verifiedEmail: provenEmail,
            emailVerified: sql`case when ${users.email} = ${provenEmail} then true else ${users.emailVerified} end`,
          }),
        })
        .where(and(eq(users.id, userId), isNull(users.deletedAt)))
        .returning()
    )[0]! ?? null
  );
}

export class LoginThrottledError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      `Too many failed attempts. Please wait ${retryAfterSeconds} seconds and try again.`,
    );
  }
}
