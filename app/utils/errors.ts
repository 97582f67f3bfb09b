// Domain errors thrown by the model layer; the doors map them to a status
// and the product's message: `api()` (app/framework/api.server.ts) for /api, and
// `pageFailure`/`pageError` (app/framework/page.server.ts) for the HTML routes.

export type FieldErrors = Record<string, string[]>;

export type DomainStatus =
  400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

/** The machine-readable code a status has when nothing more precise was given. */
export const STATUS_CODES = {
  400: "invalid",
  401: "unauthenticated",
  402: "payment_required",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "too_many_requests",
  503: "unavailable",
} as const satisfies Record<DomainStatus, string>;

export type ErrorDetail = {
  /** What went wrong, for code to branch on (never the message's wording). */
  code?: string;
  /** The form field at fault, when one is (a page shows the message beside it). */
  field?: string;
};

export class DomainError extends Error {
  readonly code: string;
  readonly field?: string;

  constructor(
    readonly status: DomainStatus,
    message: string,
    readonly fieldErrors?: FieldErrors,
    /** A short title for a toast, when the product rules give one ('Cannot edit'). */
    readonly title?: string,
    detail: ErrorDetail = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.code = detail.code ?? STATUS_CODES[status];
    this.field = detail.field;
  }
}

export const notFound = (message = "Not found") =>
  new DomainError(404, message);
export const forbidden = (message: string, title?: string) =>
  new DomainError(403, message, undefined, title);
export const conflict = (
  message: string,
  title?: string,
  detail?: ErrorDetail,
) => new DomainError(409, message, undefined, title, detail);
export const invalid = (
  message: string,
  fieldErrors?: FieldErrors,
  detail?: ErrorDetail,
) => new DomainError(400, message, fieldErrors, undefined, detail);

/**
 * Why a viewer may not do something, as a policy function answers it: the
 * page shows it, and the model's guard throws it (`refused`).
 */
export type Refusal = {
  status: 403 | 404 | 409;
  message: string;
  title?: string;
  /** What a page shows instead, where the product rules word the screen otherwise. */
  shown?: string;
};

export const refused = (refusal: Refusal) =>
  new DomainError(refusal.status, refusal.message, undefined, refusal.title);

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/**
 * A driver error that means the database could not be reached (a lost
 * PostgreSQL connection) or a change's turn never came, carried as `cause`:
 * thrown by the database layer (app/db/pg-pool.server.ts), answered 503 by
 * the doors through `unwrapDomainError`. Not a DomainError itself: code
 * that catches refusals of the rules never mistakes an outage for one.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
    this.name = "DatabaseUnavailableError";
  }
}

/**
 * The DomainError `error` stands for: itself, or one its cause chain
 * carries, or UnavailableError for a DatabaseUnavailableError (often wrapped
 * in drizzle's query error); else `error` itself.
 */
export function unwrapDomainError(error: unknown): unknown {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof DomainError) return e;
    if (e instanceof DatabaseUnavailableError) return new UnavailableError();
    e = (e as { cause?: unknown }).cause;
  }
  return error;
}

/** Seconds to wait, for the errors that say so (rate limits). */
export function retryAfterOf(error: DomainError): number | undefined {
  return "retryAfterSeconds" in error &&
    typeof error.retryAfterSeconds === "number"
    ? error.retryAfterSeconds
    : undefined;
}

export const DATABASE_UNAVAILABLE =
  "Fairshake is briefly unavailable. Please try again.";

/** The database could not be reached (PostgreSQL restarting): 503, try again shortly. */
export class UnavailableError extends DomainError {
  readonly retryAfterSeconds = 5;
  constructor() {
    super(503, DATABASE_UNAVAILABLE);
  }
}
