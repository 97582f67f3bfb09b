// The 429 of every limit: the abuse limits (app/models/requests/abuse-limits.server.ts)
// and the product's own caps (proposals, email changes), with Retry-After.
import { DomainError } from "./errors";

export class TooManyRequestsError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
