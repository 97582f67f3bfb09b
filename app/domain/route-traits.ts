// What a route is, said beside the route: its module's `handle`. The server
// reads the traits of the one route a request reaches (app/framework/
// route-pattern.ts matches it once), the browser reads those of the pages it
// may post to from the table the build writes beside its route manifest
// (app/framework/route-split.ts), and the service worker gets its paths from
// the same table (server/service-worker-file.ts). A new route says what it
// is here and nowhere else (docs/decisions/1085-route-traits-in-handle.md);
// tests/lint/route-traits.test.ts holds every route with an action to it.

/**
 * What the offline queue's list calls a kept form of this route: message
 * keys of the `kept` area, shown in the reader's language when the list is
 * opened (the signed-in layout carries that area). `Key` is the catalogs'
 * key type, which the domain cannot import: a route's handle says
 * `RouteTraits<MessageKey>` (tests/lint/route-traits.test.ts checks them all).
 */
export type OfflineLabel<Key extends string = string> = {
  /** A key such as kept.createBet ("Create a bet"): any form of the route. */
  label: Key;
  /** By the form's `intent` (join → kept.joinBet); others get `label`. */
  intents?: Readonly<Record<string, Key>>;
};

export type RouteTraits<Key extends string = string> = {
  /** `false`: the page ships no JavaScript (app/root.tsx). */
  hydrate?: false;
  /**
   * A route that also takes `multipart/form-data` (a message with photos):
   * at the /api door every other write takes JSON only, and its
   * `bodyLimit` holds for the multipart body alone (its JSON or plain form
   * gets the default limit).
   */
  multipart?: true;
  /** A body larger than the door's default (an upload). */
  bodyLimit?: { bytes: number; message: string };
  /**
   * A read that changes something (a code guess counted, access granted):
   * outside the primary region it is replayed there like a POST.
   * `{ whenQuery }`: only when the query has that parameter.
   */
  writesOnGet?: true | { whenQuery: string };
  /**
   * The write makes or ends the session an idempotency key belongs to, so
   * it is outside the key rule; "ends" also makes the service worker forget
   * the pages kept for reading the moment it is sent.
   */
  session?: "starts" | "ends";
  /**
   * Pages with an action must say whether a form the network failed to
   * send waits on the device and is sent by itself later (a label), or
   * only says 'Not sent' (`false`: paying, passwords, the email, account
   * data, signing in).
   */
  offline?: OfflineLabel<Key> | false;
  /** A signed-in page the service worker keeps, without a query, for reading offline. */
  keptForReading?: true;
  /**
   * The message areas (a key's first word: `bet` in bet.title) the
   * route's own words come from. Unlike the other traits these add up along
   * a match: the page gets the root's areas, its layouts' and its own, and
   * no others (tests/lint/message-areas.test.ts finds what each asks for).
   */
  messages?: readonly string[];
};

/**
 * The traits along a match (the `handle` exports, outermost first): each
 * trait is the innermost route's that says it.
 */
export function traitsOf(handles: readonly unknown[]): RouteTraits {
  const traits: Record<string, unknown> = {};
  for (const handle of handles)
    if (handle && typeof handle === "object")
      for (const [name, value] of Object.entries(handle))
        if (value !== undefined) traits[name] = value;
  return traits as RouteTraits;
}

/** The message areas along a match: every route's, added up. */
export function messageAreasOf(handles: readonly unknown[]): string[] {
  const areas = new Set<string>();
  for (const handle of handles) {
    const own = (handle as RouteTraits | undefined)?.messages;
    if (own) for (const area of own) areas.add(area);
  }
  return [...areas];
}

/** The kept action's name in the list (a message key), from its form's `intent`. */
export function offlineLabelFor<Key extends string>(
  offline: OfflineLabel<Key>,
  intent: string,
): Key {
  return (
    (Object.hasOwn(offline.intents ?? {}, intent)
      ? offline.intents?.[intent]
      : undefined) ?? offline.label
  );
}

/** What the browser and the service worker are told (JSON). */
export type BrowserRouteTraits<Key extends string = string> = {
  /** Page routes whose unsent forms wait on the device, by route pattern. */
  offline: { pattern: string; offline: OfflineLabel<Key> }[];
  /** Paths whose POST ends the session, data requests included. */
  signOut: string[];
  /** Patterns of the pages kept for reading offline. */
  keptForReading: string[];
};
