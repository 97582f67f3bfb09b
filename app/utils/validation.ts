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

// --- The door's rule: text no input takes (docs/decisions/1062-control-characters-refused-at-the-door.md)

/** What a field, a query or a path holding a control character is answered. */
export const CONTROL_TEXT =
  "This text contains a control character (such as NUL). Please remove it.";

/**
 * Text no input takes, whatever its field: a control character but tab and
 * line breaks (PostgreSQL refuses a NUL that SQLite would store; the rest no
 * keyboard types), or a lone surrogate (stored as a replacement character).
 * Readers of a body, a query or a path refuse it before anything is looked
 * up, so both engines are handed exactly the same text; a one-line field's
 * own rule (`maxChars`) refuses tab and line breaks too.
 */
export function refusedTextMessage(value: string): string | null {
  if (CONTROL_BUT_LINES.test(value)) return CONTROL_TEXT;
  return isWellFormed(value) ? null : UNSTORABLE_TEXT;
}

/**
 * A password is hashed, never stored or looked up as text, and compared as
 * typed: refusing a character in it could only lock out someone who chose it.
 */
export const isSecretField = (name: string) => /password$/i.test(name);

/**
 * A body's refused text (docs/decisions/1062-control-characters-refused-at-the-door.md):
 * the fields (names and values, nested ones as `a.b`) that hold it, each
 * with its message, and the message for the whole; null when there is none.
 */
export function refusedText(
  entries: Iterable<[string, unknown]>,
): { message: string; fieldErrors: FieldErrors } | null {
  const fieldErrors = refusedTextFields(entries);
  if (!fieldErrors) return null;
  const messages = Object.values(fieldErrors).flat();
  return {
    message: messages.includes(CONTROL_TEXT) ? CONTROL_TEXT : UNSTORABLE_TEXT,
    fieldErrors,
  };
}

function refusedTextFields(
  entries: Iterable<[string, unknown]>,
): FieldErrors | null {
  const out: FieldErrors = {};
  // A list, not recursion: a body nested thousands deep is walked all the same.
  const todo: [string, string, unknown][] = [...entries].map(
    ([name, value]) => [name, name, value],
  );
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [path, name, value] = next;
    const refused =
      refusedTextMessage(name) ??
      (typeof value === "string" && !isSecretField(name)
        ? refusedTextMessage(value)
        : null);
    if (refused) out[path] = [refused];
    else if (typeof value === "string") continue;
    else if (value !== null && typeof value === "object")
      for (const [inner, v] of Object.entries(value))
        todo.push([`${path}.${inner}`, inner, v]);
  }
  return Object.keys(out).length ? out : null;
}

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

/** Route ids are decimal integers; anything else is a 404, not a 500. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}
