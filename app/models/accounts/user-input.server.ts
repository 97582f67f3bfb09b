// What a username, an email and a password may be: the input schemas of
// registration, sign-in and the account's changes (app/models/accounts/).
import { z } from "zod";
import {
  isReservedUsername,
  RESERVED_USERNAME_MESSAGE,
} from "~/domain/deleted-user";
import { isWellFormed, maxChars, requiredText } from "~/utils/validation";
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
} from "~/domain/user";

export const EMAIL_SHAPE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

// NFKC: a fullwidth 'ａｌｉｃｅ' is stored as the 'alice' it shows.
export const UsernameSchema = requiredText("Username is required")
  .normalize("NFKC")
  .min(USERNAME_MIN, "Username must be at least 3 characters")
  .superRefine(
    maxChars(USERNAME_MAX, "Username must be less than 50 characters"),
  )
  .regex(
    /^[\p{L}\p{N}_.-]+$/u,
    "Username may use only letters, numbers, '.', '-' and '_'",
  )
  .refine((name) => !isReservedUsername(name), RESERVED_USERNAME_MESSAGE);

export const EmailSchema = requiredText("Email is required")
  .max(254, "Email is invalid")
  .regex(EMAIL_SHAPE, "Email is invalid")
  .refine(isWellFormed, "Email is invalid");

/** Registration's rules for a new password (also a reset and a change). */
export const NewPasswordSchema = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .min(PASSWORD_MIN, "Password must be at least 6 characters")
  .max(PASSWORD_MAX, "Password must be at most 200 characters");

export const RegisterSchema = z.object({
  username: UsernameSchema,
  email: EmailSchema,
  password: NewPasswordSchema,
});

export const LoginSchema = z.object({
  username: requiredText("Username is required")
    .normalize("NFKC")
    .max(254, "Invalid username or password"),
  password: z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .max(PASSWORD_MAX, "Invalid username or password"),
});
