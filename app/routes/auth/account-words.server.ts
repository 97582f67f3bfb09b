// The account pages' refusals in the page's language
// (docs/product-rules.md#languages). The models refuse in English, the
// words the /api keeps for programs; these pages look each sentence up and
// show it in the person's language. A sentence not listed stays as it is.
import type { MessageKey } from "~/locales/keys";
import type { PageFailure } from "~/framework/page.server";
import type { serverT } from "~/framework/catalogs.server";

type T = ReturnType<typeof serverT>;

const WORDS: Readonly<Record<string, MessageKey>> = {
  "Check the form": "accountErrors.checkForm",
  "Please correct the highlighted fields.": "accountErrors.correctFields",
  "Username is required": "accountErrors.usernameRequired",
  "Username must be at least 3 characters": "accountErrors.usernameShort",
  "Username must be less than 50 characters": "accountErrors.usernameLong",
  "Username may use only letters, numbers, '.', '-' and '_'":
    "accountErrors.usernameChars",
  "Usernames may not start with 'deleted-'.": "accountErrors.usernameReserved",
  "Username already taken": "accountErrors.usernameTaken",
  "This username looks too much like another user's. Please choose another.":
    "accountErrors.usernameLookAlike",
  "Email is required": "accountErrors.emailRequired",
  "Email is invalid": "accountErrors.emailInvalid",
  "Email already registered": "accountErrors.emailTaken",
  "Password is required": "accountErrors.passwordRequired",
  "Password must be at least 6 characters": "accountErrors.passwordShort",
  "Password must be at most 200 characters": "accountErrors.passwordLong",
  "Passwords do not match": "accountErrors.passwordsDiffer",
  "Invalid username or password": "accountErrors.invalidLogin",
  "Too many attempts from your network. Please wait a minute and try again.":
    "accountErrors.tooManyNetwork",
  "Enter your username or email": "accountErrors.loginRequired",
  "Enter at most 254 characters": "accountErrors.loginLong",
  "This reset link is invalid or has expired.": "accountErrors.badResetLink",
  "This link is invalid or has expired.": "accountErrors.badVerifyLink",
  "We sent you a link a moment ago. Please check your inbox, or try again in a few minutes.":
    "accountErrors.tooManyResends",
  "Too many reset requests. Please wait a few minutes and try again.":
    "accountErrors.tooManyResets",
  "Unknown action": "accountErrors.unknownAction",
  Error: "accountErrors.error",
};

const THROTTLED =
  /^Too many failed attempts\. Please wait (\d+) seconds and try again\.$/;

/** One refusal sentence in the page's language. */
export function accountWord(text: string, t: T): string {
  const key = WORDS[text];
  if (key) return t(key);
  const throttled = THROTTLED.exec(text);
  if (throttled)
    return t("accountErrors.tooManyFailed", { seconds: Number(throttled[1]) });
  return text;
}

/** A refused form's message and field messages in the page's language. */
export function inPageLanguage(failure: PageFailure, t: T): PageFailure {
  const fieldErrors = failure.fieldErrors
    ? Object.fromEntries(
        Object.entries(failure.fieldErrors).map(([field, list]) => [
          field,
          list.map((text) => accountWord(text, t)),
        ]),
      )
    : undefined;
  return {
    ...failure,
    message: accountWord(failure.message, t),
    ...(failure.title && { title: accountWord(failure.title, t) }),
    ...(fieldErrors && { fieldErrors }),
  };
}
