// Shared Zod helpers. Zod runs on the server only; the browser gets native
// constraint attributes (docs/architecture.md#stack).
import { z } from "zod";
import type { FieldErrors } from "./errors";

/** Text limits count characters as code points (docs/api.md), not UTF-16 units. */
export const codePoints = (value: string) => [...value].length;

export const UNSTORABLE_TEXT =
  "This text contains characters that cannot be stored.";
export const CONTROL_CHARACTERS = "Please remove line breaks and tabs.";

// C0 and C1 controls, minus what a multi-line field keeps (tab, LF, CR).
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const CONTROL_BUT_LINES =
  // eslint-disable-next-line no-control-regex -- as above
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;

/** False for a lone surrogate, which no encoding can store and read back. */
export const isWellFormed = (value: string) => !/\p{Cs}/u.test(value);

/**
 * The checks every stored text passes: at most `max` characters, nothing that
 * cannot round-trip (a lone surrogate would read back as replacement
 * characters), and no control characters — none at all in a one-line field
 * (a title, a name), none but line breaks and tabs in a multi-line one.
 */
export function maxChars(
  max: number,
  message: string,
  { multiline = false }: { multiline?: boolean } = {},
) {
  return (value: string, ctx: z.RefinementCtx) => {
    if (!isWellFormed(value))
      ctx.addIssue({ code: "custom", message: UNSTORABLE_TEXT });
    else if ((multiline ? CONTROL_BUT_LINES : ANY_CONTROL).test(value))
      ctx.addIssue({
        code: "custom",
        message: multiline ? UNSTORABLE_TEXT : CONTROL_CHARACTERS,
      });
    else if (codePoints(value) > max) ctx.addIssue({ code: "custom", message });
  };
}

/** A required trimmed string; missing and empty read the same. */
export function requiredText(requiredMessage: string) {
  // abort: an empty field shows only "… is required", not every rule it breaks.
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage, abort: true });
}

export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "form";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
