// Who the user is, once per request: React Router's root middleware
// (app/root.tsx) runs the session middleware, which puts a lookup here
// (app/models/accounts/session.server.ts), and every loader and action of
// that request (root, layout and page, or the one resource route) and the
// idempotency guard read the same one. It is lazy, so a request that never
// asks (an avatar, /healthz, a login) pays nothing, and it lives exactly as
// long as the request's context
// (docs/decisions/archive/0811-session-through-router-middleware.md).
// The slot sits here, below accounts, so request plumbing can ask who the
// user is without importing the sessions (docs/architecture.md#model-domains).
import { createContext, type RouterContextProvider } from "react-router";
import type { User } from "~/db/schema";

/** The loader/action arguments the user is read from. */
export type RequestArgs = {
  request: Request;
  context: Readonly<RouterContextProvider>;
};

type UserLookup = () => Promise<User | null>;
const requestUserContext = createContext<UserLookup>();

/** Set once per request, by the session middleware. */
export function setUserLookup(
  context: Readonly<RouterContextProvider>,
  lookup: UserLookup,
) {
  context.set(requestUserContext, lookup);
}

export function getUser({ context }: RequestArgs): Promise<User | null> {
  return context.get(requestUserContext)();
}

/**
 * Tells `seen` who the user is once the request's own lookup has answered,
 * without asking for one (a request that never asks stays free).
 */
export function onUserKnown(
  context: Readonly<RouterContextProvider>,
  seen: (user: User | null) => void,
) {
  const lookup = context.get(requestUserContext);
  let watched: Promise<User | null> | undefined;
  context.set(requestUserContext, () => {
    if (!watched) {
      watched = lookup();
      watched.then(seen, () => {});
    }
    return watched;
  });
}
