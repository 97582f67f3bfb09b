// Domain errors thrown by the model layer; routes map them to a status and
// SPEC's message. Shared by the HTML routes and the /api routes.

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 429,
    message: string,
    readonly fieldErrors?: FieldErrors,
    /** A short title for a toast, when SPEC gives one ('Cannot edit'). */
    readonly title?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (message = "Not found") =>
  new DomainError(404, message);
export const forbidden = (message: string, title?: string) =>
  new DomainError(403, message, undefined, title);
export const conflict = (message: string, title?: string) =>
  new DomainError(409, message, undefined, title);
export const invalid = (message: string, fieldErrors?: FieldErrors) =>
  new DomainError(400, message, fieldErrors);

/**
 * Why a viewer may not do something, as a policy function answers it: the
 * page shows it, and the model's guard throws it (`refused`).
 */
export type Refusal = { status: 403 | 409; message: string; title?: string };

export const refused = (refusal: Refusal) =>
  new DomainError(refusal.status, refusal.message, undefined, refusal.title);

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
