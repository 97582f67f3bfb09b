// Which forms may wait on the device (docs/product-rules.md#acting-offline,
// docs/decisions/1060-offline-queue-under-faults.md): the one list of the
// routes whose writes are kept and sent later, and what the list of kept
// actions calls each. Keeping a form and sending a kept one both ask it, so
// an entry naming any other path (paying, the password, a route planted by
// a script on the page) is never sent. Each route listed also declares it
// in its own module (`keepFormIfUnsent(args, { queue: true })`), and
// app/browser/offline-queue/queueable.test.ts holds the two together.
import { matchPath, type href } from "react-router";

type Queueable = {
  /**
   * The route's path, as app/routes.ts declares it: typed against the route
   * table, as `href()`'s argument is, so a renamed route fails typecheck.
   */
  pattern: Parameters<typeof href>[0];
  /** What the list of kept actions calls it, from the form's `intent`. */
  what: (intent: string) => string;
};

const named = (prefix: string) => (intent: string) =>
  intent ? `${prefix}: ${intent.replace(/-/g, " ")}` : prefix;

export const QUEUEABLE: readonly Queueable[] = [
  { pattern: "/create-bet", what: () => "Create a bet" },
  { pattern: "/bet/:id/edit", what: () => "Edit a bet" },
  { pattern: "/edit-bet/:id", what: () => "Edit a bet" },
  { pattern: "/bet/:id/rule", what: () => "Referee's decision" },
  { pattern: "/propose-settlement/:id", what: () => "Propose a settlement" },
  {
    pattern: "/settlements/:id/approve",
    what: () => "Approve a settlement",
  },
  { pattern: "/settlements/:id/reject", what: () => "Reject a settlement" },
  { pattern: "/settle-bet/:id", what: named("Settlement") },
  { pattern: "/profile/edit", what: () => "Edit profile" },
  { pattern: "/profile/notifications", what: () => "Notification settings" },
  { pattern: "/friends", what: named("Friends") },
  {
    pattern: "/bet/:id",
    what: (intent) =>
      intent === "join"
        ? "Join a bet"
        : intent === "nudge"
          ? "Nudge"
          : intent === "message"
            ? "Send a message"
            : intent === "delete-message"
              ? "Delete a message"
              : named("Bet")(intent),
  },
];

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
  return (
    QUEUEABLE.find((route) =>
      matchPath({ path: route.pattern, end: true }, pathname),
    ) ?? null
  );
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
