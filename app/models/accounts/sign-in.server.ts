// Signing in and signing up, wherever they are reached (the /auth page, the
// /api calls): the per-address limit on attempts and the per-account delay
// live here, on the act itself, so no spelling of a URL goes around them.
import { guessCurrency } from "~/domain/currency";
import { resolveLanguage, type Language } from "~/domain/language";
import type { User } from "~/db/schema";
import { DomainError, invalid } from "~/utils/errors";
import { recordLoginSuccess, takeLoginAttempt } from "./login-throttle.server";
import { AbuseLimit } from "../requests/abuse-limits.server";
import { fieldErrorsOf } from "~/utils/validation";
import { sendVerificationEmail } from "./email-verification.server";
import { passkeyOwner, verifyPasskeySignIn } from "./passkey-sign-in.server";
import { LoginThrottledError, registerUser, verifyLogin } from "./user.server";
import { LoginSchema } from "./user-input.server";

export const INVALID_CREDENTIALS = "Invalid username or password";
export const TOO_MANY_AUTH_ATTEMPTS =
  "Too many attempts from your network. Please wait a minute and try again.";

/** Sign-in and sign-up together: 10 attempts per client address per minute. */
const authAttempts = new AbuseLimit({
  name: "auth-attempts",
  limit: 10,
  windowMs: 60_000,
  message: TOO_MANY_AUTH_ATTEMPTS,
});

type From = {
  /** The client's address, as the server determined it (never a header a client chose). */
  clientAddress: string;
};

/**
 * Checks credentials. Answers the user and a device cookie to set, so this
 * browser is never held back by failures typed elsewhere.
 */
export async function signIn({
  input,
  clientAddress,
  cookieHeader,
}: From & { input: unknown; cookieHeader: string | null }): Promise<{
  user: User;
  deviceCookie: string;
}> {
  await authAttempts.take([clientAddress]);
  const parsed = LoginSchema.safeParse(input);
  if (!parsed.success)
    throw invalid(
      "Please correct the highlighted fields.",
      fieldErrorsOf(parsed.error),
    );
  const { username, password } = parsed.data;
  const attempt = { username, cookieHeader };
  // Counted before the password is checked, so attempts sent together
  // are checked no faster than one after another.
  const wait = await takeLoginAttempt(attempt);
  if (wait > 0) throw new LoginThrottledError(wait);
  const user = await verifyLogin(username, password);
  if (!user) throw new DomainError(401, INVALID_CREDENTIALS);
  return { user, deviceCookie: await recordLoginSuccess(attempt) };
}

/**
 * Signs in with a passkey (docs/product-rules.md#passkeys): in the same
 * limits as a password, the address's attempts and the account's delay
 * after failures; a success clears the account's count and hands this
 * browser its device cookie, as a password sign-in does.
 */
export async function signInWithPasskey({
  response,
  clientAddress,
  cookieHeader,
  request,
}: From & {
  response: unknown;
  cookieHeader: string | null;
  request?: Request;
}): Promise<{ user: User; deviceCookie: string }> {
  await authAttempts.take([clientAddress]);
  const owner = await passkeyOwner(response);
  const attempt = { username: owner.user.username, cookieHeader };
  const wait = await takeLoginAttempt(attempt);
  if (wait > 0) throw new LoginThrottledError(wait);
  const user = await verifyPasskeySignIn({
    owner,
    response,
    cookieHeader,
    request,
  });
  return { user, deviceCookie: await recordLoginSuccess(attempt) };
}

export async function signUp({
  input,
  clientAddress,
  acceptLanguage,
  language,
}: From & {
  input: unknown;
  /** The browser's languages: the first guess of their currency (docs/product-rules.md#currencies). */
  acceptLanguage?: string | null;
  /** The page's language where they signed up, else the browser's best (docs/product-rules.md#languages). */
  language?: Language;
}): Promise<User> {
  await authAttempts.take([clientAddress]);
  const user = await registerUser(input, {
    currency: guessCurrency(acceptLanguage),
    language: language ?? resolveLanguage({ acceptLanguage }),
  });
  await sendVerificationEmail(user);
  return user;
}
