// The pipeline's session step: who the request is from, looked up once and
// only when something asks (a loader, an action, the idempotency guard), and
// the answer marked with whom it was for (the service worker reads it).
// The sessions themselves are a model's: app/models/accounts/session.server.ts.
import type { MiddlewareFunction } from "react-router";
import {
  lookUpSessionUser,
  returnToContext,
  SIGNED_IN_USER_HEADER,
} from "~/models/accounts/session.server";
import { setUserLookup } from "~/models/requests/request-user.server";

export const sessionMiddleware: MiddlewareFunction<Response> = async (
  { request, url, context },
  next,
) => {
  context.set(returnToContext, url.pathname + url.search);
  let lookup: ReturnType<typeof lookUpSessionUser> | undefined;
  setUserLookup(context, () => (lookup ??= lookUpSessionUser(request)));
  const response = await next();
  // The answer names who it was for when the request asked (every page
  // does, in the root loader): the service worker keeps signed-in pages
  // for offline reading and forgets them all when the answer names someone
  // else, or no one (public/sw.js, docs/decisions/1001-offline-reading-of-kept-pages.md). Never a lookup of
  // its own: a request that did not ask pays nothing.
  // A public answer (a share image) is the same for everyone and may be
  // kept by any cache: it names no one.
  const isPublic = /\bpublic\b/i.test(
    response.headers.get("Cache-Control") ?? "",
  );
  if (lookup && !isPublic) {
    // A lookup that failed (the database out of reach) was answered by the
    // route already (503): the answer then names no one, and is not kept.
    const user = await lookup.catch(() => undefined);
    if (user === undefined) return response;
    try {
      response.headers.set(SIGNED_IN_USER_HEADER, user ? String(user.id) : "-");
    } catch {
      // A response with immutable headers (none of ours) just goes without.
    }
  }
  return response;
};
