// Login through remix-auth's FormStrategy; the same verify step serves the
// HTML form (/auth) and the JSON API (/api/login).
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { User } from "~/db/schema";
import {
  LoginSchema,
  LoginThrottledError,
  verifyLogin,
} from "~/models/user.server";
import { DomainError, invalid } from "./errors";
import {
  loginRetryAfter,
  recordLoginFailure,
  recordLoginSuccess,
} from "./login-throttle.server";
import { fieldErrorsOf } from "./validation";

export const INVALID_CREDENTIALS = "Invalid username or password";

/** Checks credentials with the per-account growing delay. */
export async function authenticateCredentials(input: unknown): Promise<User> {
  const parsed = LoginSchema.safeParse(input);
  if (!parsed.success)
    throw invalid(
      "Please correct the highlighted fields.",
      fieldErrorsOf(parsed.error),
    );
  const { username, password } = parsed.data;
  const wait = loginRetryAfter(username);
  if (wait > 0) throw new LoginThrottledError(wait);
  const user = await verifyLogin(username, password);
  if (!user) {
    recordLoginFailure(username);
    throw new DomainError(401, INVALID_CREDENTIALS);
  }
  recordLoginSuccess(username);
  return user;
}

export const authenticator = new Authenticator<User>();

authenticator.use(
  new FormStrategy(async ({ form }) =>
    authenticateCredentials({
      username: form.get("username") ?? undefined,
      password: form.get("password") ?? undefined,
    }),
  ),
  "form",
);
