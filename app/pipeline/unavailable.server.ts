// A page whose loader or action could not reach the database (PostgreSQL
// restarting) answers 503 with Retry-After, as the /api does
// (docs/product-rules.md#more-than-one-machine), instead of React Router's
// 500. Only what a page throws without catching reaches here: React Router
// passes it to `handleError` (app/entry.server.tsx), which notes the
// request; the root middleware then turns that request's 500 into a 503.
import type { MiddlewareFunction } from "react-router";
import { UnavailableError, unwrapDomainError } from "~/utils/errors";

const unavailable = new WeakSet<Request>();

/**
 * From `handleError`: was this the database out of reach? Then say so for
 * the request, and answer true (an outage is one line in the log, not a
 * stack per request).
 */
export function noteIfUnavailable(error: unknown, request: Request): boolean {
  if (!(unwrapDomainError(error) instanceof UnavailableError)) return false;
  unavailable.add(request);
  return true;
}

export const unavailableMiddleware: MiddlewareFunction<Response> = async (
  { request },
  next,
) => {
  const response = await next();
  const outage = response.status === 500 && unavailable.has(request);
  // A form refused 503 by its action (the database out of reach while it
  // ran) carries Retry-After in its data, but React Router's document
  // answer takes no headers from an action: the header is added here.
  const unsaid =
    response.status === 503 && !response.headers.has("Retry-After");
  if (!outage && !unsaid) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(new UnavailableError().retryAfterSeconds));
  return new Response(response.body, {
    status: 503,
    statusText: "Service Unavailable",
    headers,
  });
};
