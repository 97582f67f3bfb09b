// Users: registration, credentials, public views. The only module that
// reads or writes password hashes.
import { hash, verify } from "@node-rs/argon2";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { db } from "~/db/client.server";
import { users, type User } from "~/db/schema";
import { conflict, DomainError, invalid } from "~/utils/errors";
import { fieldErrorsOf, maxChars, requiredText } from "~/utils/validation";

// OWASP's argon2id floor: 46 MiB, 1 pass, 1 lane. @node-rs/argon2 hashes on
// libuv's thread pool, so a login never blocks the event loop.
const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable here)
  memoryCost: 47_104,
  timeCost: 1,
  parallelism: 1,
} as const;

export const USERNAME_MAX = 50;
export const USERNAME_MIN = 3;
export const PASSWORD_MIN = 6;
const PASSWORD_MAX = 200;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const UsernameSchema = requiredText("Username is required")
  .min(USERNAME_MIN, "Username must be at least 3 characters")
  .superRefine(
    maxChars(USERNAME_MAX - 1, "Username must be less than 50 characters"),
  )
  .regex(
    /^[\p{L}\p{N}_.-]+$/u,
    "Username may use only letters, numbers, '.', '-' and '_'",
  );

export const EmailSchema = requiredText("Email is required")
  .max(254, "Email is invalid")
  .regex(EMAIL_SHAPE, "Email is invalid");

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .min(PASSWORD_MIN, "Password must be at least 6 characters")
    .max(PASSWORD_MAX, "Password must be at most 200 characters"),
});

export const LoginSchema = z.object({
  username: requiredText("Username is required").max(
    254,
    "Invalid username or password",
  ),
  password: z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .max(PASSWORD_MAX, "Invalid username or password"),
});

export type PublicUser = Pick<
  User,
  "id" | "username" | "avatarUrl" | "winCount" | "lossCount"
>;

/** The signed-in user's own view (DESIGN §3): never a password or hash. */
export function toUserJson(user: User) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    avatarUrl: user.avatarUrl,
    createdAt: user.createdAt.toISOString(),
    winCount: user.winCount,
    lossCount: user.lossCount,
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

/** What anyone else may see of a user. */
export function toPublicUser(user: PublicUser): PublicUser {
  return {
    id: user.id,
    username: user.username,
    avatarUrl: user.avatarUrl,
    winCount: user.winCount,
    lossCount: user.lossCount,
  };
}

export function getUserById(id: number): User | null {
  return db.select().from(users).where(eq(users.id, id)).get() ?? null;
}

export function getPublicUser(id: number): PublicUser | null {
  const user = getUserById(id);
  return user ? toPublicUser(user) : null;
}

export function findUserByUsername(username: string): User | null {
  return (
    db
      .select()
      .from(users)
      .where(sql`lower(${users.username}) = lower(${username})`)
      .get() ?? null
  );
}

function emailTaken(email: string, exceptUserId?: number) {
  const row = db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .get();
  return row !== undefined && row.id !== exceptUserId;
}

function usernameTaken(username: string, exceptUserId?: number) {
  const row = findUserByUsername(username);
  return row !== null && row.id !== exceptUserId;
}

export const hashPassword = (password: string) =>
  hash(password, ARGON2_OPTIONS);

/** Registers a user. Throws 400 with field errors or 409 when taken. */
export async function registerUser(input: unknown): Promise<User> {
  const parsed = RegisterSchema.safeParse(input);
  if (!parsed.success)
    throw invalid(
      "Please correct the highlighted fields.",
      fieldErrorsOf(parsed.error),
    );
  const { username, email, password } = parsed.data;
  if (usernameTaken(username)) throw conflict("Username already taken");
  if (emailTaken(email)) throw conflict("Email already registered");
  const passwordHash = await hashPassword(password);
  try {
    return db
      .insert(users)
      .values({ username, email, passwordHash })
      .returning()
      .get();
  } catch (error) {
    // Two registrations raced past the checks above: the unique index decides.
    if (String(error).includes("users_username_unique"))
      throw conflict("Username already taken");
    if (String(error).includes("users_email_unique"))
      throw conflict("Email already registered");
    throw error;
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
  const user = findUserByUsername(username);
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

export class LoginThrottledError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      `Too many failed attempts. Please wait ${retryAfterSeconds} seconds and try again.`,
    );
  }
}
