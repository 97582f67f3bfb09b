// Shared Zod helpers. Zod runs on the server only; the browser gets native
// constraint attributes (DESIGN §1 forms).
import { z } from "zod";
import type { FieldErrors } from "./errors";

/** Text limits count characters as code points (DESIGN §3a), not UTF-16 units. */
export const codePoints = (value: string) => [...value].length;

export function maxChars(max: number, message: string) {
  return (value: string, ctx: z.RefinementCtx) => {
    if (codePoints(value) > max) ctx.addIssue({ code: "custom", message });
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
