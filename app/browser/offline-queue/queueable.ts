// Which forms may wait on the device (docs/product-rules.md#acting-offline,
// docs/decisions/1060-offline-queue-under-faults.md): each page route says so
// in its own `handle` (`offline: { label }`, app/framework/route-traits.ts),
// and the server writes the list of those routes, with what the list of
// kept actions calls each, into the route manifest file the page loads
// (app/framework/route-split.ts). Keeping a form and sending a kept one both
// ask it, so an entry naming any other path (paying, the password, a route
// planted by a script on the page) is never sent. Without that file (the
// development server) nothing waits: a failed form says 'Not sent'.
import { matchPath } from "react-router";
import {
  offlineLabelFor,
  type BrowserRouteTraits,
} from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";

declare global {
  interface Window {
    /** Set by the route manifest file (app/framework/route-split.ts). */
    __fairshakeOffline?: BrowserRouteTraits<MessageKey>["offline"];
  }
}

type Queueable = {
  /** The route's path, as app/routes.ts declares it. */
  pattern: string;
  /** What the list of kept actions calls it (a message key), from the form's `intent`. */
  what: (intent: string) => MessageKey;
};

function waitingRoutes(): BrowserRouteTraits<MessageKey>["offline"] {
  return (typeof window !== "undefined" && window.__fairshakeOffline) || [];
}

/** The listed route an action posts to (its path, with or without a query); null when it may not wait. */
export function queueableRoute(action: string) {
  const base = "http://queue.invalid";
  let pathname: string;
  try {
    const url = new URL(action, base);
    // A path on this site only: never another host (`//host/…`).
    if (url.origin !== base || !action.startsWith("/")) return null;
    pathname = url.pathname;
  } catch {
    return null;
  }
  const route = waitingRoutes().find(({ pattern }) =>
    matchPath({ path: pattern, end: true }, pathname),
  );
  if (!route) return null;
  return {
    pattern: route.pattern,
    what: (intent: string) => offlineLabelFor(route.offline, intent),
  } satisfies Queueable;
}

// A field that holds a secret, by its name: a password (current, new,
// confirmation), a card's number or code, a token.
const SECRET = /password|passcode|secret|token|card|cvc|cvv|expiry/i;

/**
 * The fields a form may be kept with: an empty secret field is left out, and
 * a form carrying any secret (an email change needs the current password)
 * is not kept at all: null. Nothing secret is written to the browser's
 * storage.
 */
export function keepableFields<T>(fields: [string, T][]) {
  const kept: [string, T][] = [];
  for (const [name, value] of fields) {
    if (!SECRET.test(name)) kept.push([name, value]);
    else if (typeof value !== "string" || value !== "") return null;
  }
  return kept;
}
