// The HTML door, twin of /api's `api()` (app/framework/api.server.ts). A model
// throws a DomainError (status, the product's message, a machine-readable code and,
// when a field is at fault, that field); this module is the one place that
// turns it into what a page answers:
//
// - an action's form reply (`formFailure`, the one way, docs/decisions/0981-one-way-to-answer-a-form.md):
//   the refusal's status, the message, and field errors for the form
//   (docs/api.md: never a redirect that would lose what the person typed);
// - a loader's thrown response (`pageError`, `page`) for the route's error
//   boundary (app/components/error-boundary.tsx), with per-status payloads
//   where a route words its own screens.
//
// Anything that is not a DomainError is rethrown untouched: a bug stays a 500
// (logged by the server), never a message made up here.
import { data } from "react-router";
import {
  isDomainError,
  unwrapDomainError,
  retryAfterOf,
  type DomainError,
  type FieldErrors,
} from "~/utils/errors";
import { pageWords } from "./page-words.server";

/** A domain error as a page answers it (500: a bug a page words itself, `pageFailureOr`). */
export type PageFailure = {
  status: DomainError["status"] | 500;
  code: string;
  message: string;
  /** The product's toast title, when the model gives one ('Cannot edit'). */
  title?: string;
  /** The field at fault, when one is. */
  field?: string;
  /** Per-field messages the model gave (validation); undefined when none. */
  fieldErrors?: FieldErrors;
  /** Retry-After for rate limits; undefined otherwise. */
  headers?: HeadersInit;
};

/** The one mapping: a DomainError as a page answer. Rethrows anything else. */
export function pageFailure(thrown: unknown): PageFailure {
  const error = unwrapDomainError(thrown);
  if (!isDomainError(error)) throw thrown;
  const retryAfter = retryAfterOf(error);
  // The model words it in English; a page shows it in its own language.
  return {
    status: error.status,
    code: error.code,
    message: pageWords(error.message),
    title: error.title === undefined ? undefined : pageWords(error.title),
    field: error.field,
    fieldErrors: error.fieldErrors && wordsOfFields(error.fieldErrors),
    headers:
      retryAfter === undefined
        ? undefined
        : { "Retry-After": String(retryAfter) },
  };
}

function wordsOfFields(fieldErrors: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(fieldErrors).map(([field, messages]) => [
      field,
      messages.map(pageWords),
    ]),
  );
}

/**
 * For the pages that answer even a bug in their own words (checkout: a
 * provider that cannot be reached; the finances panel): a DomainError as
 * `pageFailure` maps it, anything else logged and answered 500 with
 * `fallback` (code `internal`).
 */
export function pageFailureOr(
  error: unknown,
  fallback: { message: string; title?: string },
): PageFailure {
  if (isDomainError(unwrapDomainError(error))) return pageFailure(error);
  console.error(error);
  return { status: 500, code: "internal", ...fallback };
}

/**
 * What every page action answers for a refused form (docs/decisions/0981-one-way-to-answer-a-form.md):
 * `data(FormFailure & extra, { status, headers })`. The form shows
 * `message` in its alert (when no field carries the errors, on the plain
 * forms: `formAlert`), `fieldErrors` beside the fields, and `extra` is what
 * the route echoes back (what the person typed, which form of the page).
 */
export type FormFailure = {
  ok: false;
  status: number;
  /** A toast-style title when the product rules give one ('Cannot edit', 'Failed to join bet'). */
  title: string;
  message: string;
  fieldErrors: FieldErrors;
  /** The field at fault when the model names one (`username_taken`): /auth shows the message beside it. */
  field?: string;
};

/**
 * The alert's title: a string is the route's default, the model's title
 * winning when it gives one; a function words it from the failure (by code
 * or status) and has the last word.
 */
export type FailureTitle = string | ((failure: PageFailure) => string);

/** The one reply to a refused form: `data(FormFailure & extra, { status, headers })`. */
export function formFailure<Extra extends object = object>(
  error: unknown,
  title: FailureTitle,
  extra?: Extra,
) {
  return formReply(pageFailure(error), title, extra);
}

/** `formFailure` for a failure already mapped (`pageFailureOr`). */
export function formReply<Extra extends object = object>(
  failure: PageFailure,
  title: FailureTitle,
  extra?: Extra,
) {
  const body: FormFailure & Extra = {
    ok: false,
    status: failure.status,
    title: pageWords(
      typeof title === "function" ? title(failure) : (failure.title ?? title),
    ),
    message: failure.message,
    fieldErrors: failure.fieldErrors ?? {},
    ...(failure.field === undefined ? {} : { field: failure.field }),
    ...(extra as Extra),
  };
  return data(body, { status: failure.status, headers: failure.headers });
}

/** What a route's error boundary receives for a status: its own words or the product's message. */
export type StatusPayloads = Partial<
  Record<PageFailure["status"], (failure: PageFailure) => unknown>
>;

/**
 * A loader's refusal as a thrown response for the error boundary: the
 * status, Retry-After, and as data the route's payload for that status, or
 * the message. `throw pageError(error)`; rethrows anything not a DomainError.
 */
export function pageError(error: unknown, payloads: StatusPayloads = {}) {
  const failure = pageFailure(error);
  const payload = payloads[failure.status]?.(failure) ?? failure.message;
  return data(payload, { status: failure.status, headers: failure.headers });
}

/** Runs a loader's work, a refusal becoming `pageError`: the twin of `api()`. */
export function page<T>(fn: () => T, payloads?: StatusPayloads): T {
  const refuse = (error: unknown): never => {
    throw pageError(error, payloads);
  };
  try {
    const result = fn();
    return result instanceof Promise ? (result.catch(refuse) as T) : result;
  } catch (error) {
    return refuse(error);
  }
}
