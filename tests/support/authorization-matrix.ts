// The authorisation matrix as data: for every route that takes a parameter,
// the answer each role gets on a bet in each state and visibility (
// docs/api.md, docs/product-rules.md#roles, docs/product-rules.md#settlement, #paying, #private-bets). tests/api/authorization.test.ts runs it.
import type { Method } from "./route-table";
import type { Person } from "./world";
import { inTwoDays, type BetRef, type BetState } from "./world";

export type Role = "anonymous" | "stranger" | "creator" | "participant";
export type Visibility = "public" | "private";
export type Cell = {
  role: Role;
  state: BetState;
  visibility: Visibility;
  bet: BetRef;
  path: string;
  people: People;
};
export type Want = number | { status: number; location: string } | null;
export type People = { creator: Person; participant: Person; stranger: Person };

export type Row = {
  route: string;
  method: Method;
  /** What the parameter names: a bet (default) or the creator's user id. */
  target?: "bet" | "user";
  /** Concrete path for non-id params ("/api/user/bets/created"). */
  path?: string;
  query?: (bet: BetRef) => string;
  /** A form (pages) or JSON (API) body that would succeed for the right person. */
  body?: (cell: Cell) => Record<string, unknown>;
  expect: (cell: Cell) => Want;
  /** Bet states to try (default: pending, active, settled). */
  states?: BetState[];
  /** For a write: who may make it. Anyone else's attempt must change nothing. */
  allowed?: (cell: Cell) => boolean;
};

export const ROLES: Role[] = [
  "anonymous",
  "stranger",
  "creator",
  "participant",
];
export const DEFAULT_STATES: BetState[] = ["pending", "active", "settled"];
export const VISIBILITIES: Visibility[] = ["public", "private"];

// --- Answers shared by many rows ---------------------------------------------

const toAuth = (c: Cell): Want => ({
  status: 302,
  location: `/auth?return_to=${encodeURIComponent(c.path)}`,
});
const isParty = (c: Cell) => c.role === "creator" || c.role === "participant";
/** docs/product-rules.md#private-bets: a private bet is a 404 to anyone not in it, like a missing one. */
export const hidden = (c: Cell) => c.visibility === "private" && !isParty(c);

/** A protected page that reads the bet. */
const betPage = (c: Cell): Want =>
  c.role === "anonymous" ? toAuth(c) : hidden(c) ? 404 : 200;
/** An API read of the bet. */
const betApi = (c: Cell): Want =>
  c.role === "anonymous" ? 401 : hidden(c) ? 404 : 200;

/** docs/product-rules.md#roles: only the creator edits or deletes, only while pending and alone. */
function editOrDelete(c: Cell, ok: number): Want {
  if (c.role === "anonymous") return 401;
  if (hidden(c)) return 404;
  if (c.role !== "creator") return 403;
  return c.state === "pending" ? ok : 409;
}

/**
 * The edit screen's forms: docs/product-rules.md#roles sends a refused person to /my-bets
 * with 'Access denied' or 'Cannot edit' (the page's loader refuses them).
 */
function editForm(c: Cell, success: Want): Want {
  if (c.role === "anonymous") return toAuth(c);
  if (hidden(c)) return 404;
  if (c.role === "creator" && c.state === "pending") return success;
  return { status: 302, location: "/my-bets" };
}

const editPageGet = (c: Cell): Want => {
  if (c.role === "anonymous") return toAuth(c);
  if (hidden(c)) return 404;
  if (c.role === "creator" && c.state === "pending") return 200;
  // docs/product-rules.md#forms-and-messages: 'Access denied' / 'Cannot edit' toasts and back to /my-bets.
  return { status: 302, location: "/my-bets" };
};

/** Joining: others may join a pending bet they can see; 409 otherwise. */
function join(c: Cell, ok: Want, api: boolean): Want {
  if (c.role === "anonymous") return api ? 401 : toAuth(c);
  if (hidden(c)) return 404;
  if (c.role === "stranger" && c.state === "pending") return ok;
  return 409;
}

const SETTLE_STATES: BetState[] = ["pending", "active", "proposed", "settled"];
/** A settlement is live once proposed, and stays once settled. */
const hasSettlement = (c: Cell) =>
  c.state === "proposed" || c.state === "settled";

/**
 * Paying: a hidden bet is a 404; someone not in it 403; before it is
 * settled 409; once settled only the loser (the conceding creator) pays.
 */
function payable(c: Cell, ok: Want): Want {
  if (hidden(c)) return 404;
  if (!isParty(c)) return 403;
  if (c.state !== "settled") return 409;
  return c.role === "creator" ? ok : 403;
}

const validBet = () => ({
  title: "Edited title",
  description: "An edited description that is long enough.",
  amount: 25,
  deadline: inTwoDays(),
  visibility: "public",
});
const validBetForm = () => ({
  intent: "update",
  title: "Edited title",
  description: "An edited description that is long enough.",
  amount: "25",
  visibility: "public",
  deadlineDate: new Date(Date.now() + 3 * 86_400_000)
    .toISOString()
    .slice(0, 10),
  timeZone: "UTC",
});

export const MATRIX: Row[] = [
  // --- Bet pages -------------------------------------------------------------
  { route: "/bet/:id", method: "GET", expect: betPage },
  {
    route: "/bet/:id",
    method: "POST",
    body: () => ({ intent: "join" }),
    expect: (c) =>
      join(c, { status: 302, location: `/bet/${c.bet.id}` }, false),
    allowed: (c) =>
      c.role === "stranger" && c.state === "pending" && !hidden(c),
  },
  // docs/product-rules.md#messages: the bet page's message form, only its people.
  {
    route: "/bet/:id",
    method: "POST",
    states: SETTLE_STATES,
    body: () => ({ intent: "message", body: "Who has the ball?" }),
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c)
          ? 404
          : !isParty(c)
            ? 403
            : { status: 302, location: `/bet/${c.bet.id}#messages` },
    allowed: isParty,
  },
  ...["/bet/:id/edit", "/edit-bet/:id"].flatMap((route): Row[] => [
    { route, method: "GET", expect: editPageGet },
    {
      route,
      method: "POST",
      body: validBetForm,
      expect: (c) => editForm(c, { status: 302, location: `/bet/${c.bet.id}` }),
      allowed: (c) => c.role === "creator" && c.state === "pending",
    },
    {
      route,
      method: "POST",
      body: () => ({ intent: "delete" }),
      expect: (c) => editForm(c, { status: 302, location: "/my-bets" }),
      allowed: (c) => c.role === "creator" && c.state === "pending",
    },
  ]),
  {
    route: "/join/:code",
    method: "GET",
    // The code opens the bet for whoever has it (docs/product-rules.md#private-bets).
    expect: (c) => (c.role === "anonymous" ? toAuth(c) : 200),
  },
  {
    route: "/join/:code",
    method: "POST",
    body: () => ({}),
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : c.role === "stranger" && c.state === "pending"
          ? { status: 302, location: `/bet/${c.bet.id}` }
          : 409,
    allowed: (c) => c.role === "stranger" && c.state === "pending",
  },
  {
    route: "/share/:id",
    method: "GET",
    expect: (c) =>
      c.visibility === "private"
        ? 404
        : c.role === "anonymous"
          ? 200
          : { status: 302, location: `/bet/${c.bet.id}` },
  },
  {
    route: "/share/:id",
    method: "GET",
    query: (b) => `?code=${b.code}`,
    expect: (c) =>
      c.role === "anonymous"
        ? 200
        : { status: 302, location: `/bet/${c.bet.id}` },
  },
  {
    route: "/bets/:id",
    method: "GET",
    expect: (c) => ({ status: 301, location: `/bet/${c.bet.id}` }),
  },

  // --- Bet API -------------------------------------------------------------------
  { route: "/api/bets/:id", method: "GET", expect: betApi },
  {
    route: "/api/bets/:id",
    method: "PUT",
    body: validBet,
    expect: (c) => editOrDelete(c, 200),
    allowed: (c) => c.role === "creator" && c.state === "pending",
  },
  {
    route: "/api/bets/:id",
    method: "DELETE",
    expect: (c) => editOrDelete(c, 204),
    allowed: (c) => c.role === "creator" && c.state === "pending",
  },
  {
    route: "/api/bets/code/:code",
    method: "GET",
    expect: (c) => (c.role === "anonymous" ? 401 : 200),
  },
  {
    route: "/api/bets/:id/join",
    method: "POST",
    body: () => ({}),
    expect: (c) => join(c, 200, true),
    allowed: (c) =>
      c.role === "stranger" && c.state === "pending" && !hidden(c),
  },
  ...["/api/bets/:id/share-meta", "/api/bets/:id/share-image"].flatMap(
    (route): Row[] => [
      // No session needed; a private bet only with its code (docs/product-rules.md#private-bets),
      // or for a signed-in person who may see it anyway (docs/product-rules.md#private-bets).
      {
        route,
        method: "GET",
        expect: (c) => (hidden(c) ? 404 : 200),
      },
      {
        route,
        method: "GET",
        query: (b) => `?code=${b.code}`,
        expect: () => 200,
      },
    ],
  ),
  ...(["created", "joined", "completed"] as const).map((kind): Row => ({
    route: "/api/user/bets/:kind",
    path: `/api/user/bets/${kind}`,
    method: "GET",
    expect: (c) => (c.role === "anonymous" ? 401 : 200),
  })),
  {
    route: "/api/users/:id",
    method: "GET",
    target: "user",
    expect: (c) => (c.role === "anonymous" ? 401 : 200),
  },
  // A session id that is nobody's here (tests/api/account-security.test.ts
  // revokes another person's real session id and gets the same 404).
  {
    route: "/api/user/sessions/:id",
    method: "DELETE",
    path: "/api/user/sessions/0123456789abcdef0123456789abcdef",
    states: ["pending"],
    expect: (c) => (c.role === "anonymous" ? 401 : 404),
  },
  // A passkey id that is nobody's here (tests/api/passkeys.test.ts removes
  // another person's real one and gets the same 404).
  {
    route: "/api/user/passkeys/:id",
    method: "DELETE",
    path: "/api/user/passkeys/987654321",
    states: ["pending"],
    expect: (c) => (c.role === "anonymous" ? 401 : 404),
  },
  // A page's messages are the same words for everyone, signed in or not
  // (docs/decisions/1165-messages-in-a-file-of-their-own.md).
  {
    route: "/messages/:language/:file",
    method: "GET",
    path: "/messages/de/bet.aaaaaaaaaaaa.json",
    states: ["pending"],
    expect: () => 200,
  },
  // Uploaded avatars are public images; nobody here has uploaded one.
  {
    route: "/avatars/:userId",
    method: "GET",
    target: "user",
    expect: () => 404,
  },
  ...(["accept", "decline"] as const).map((decision): Row => ({
    route: "/api/friends/:decision",
    path: `/api/friends/${decision}`,
    method: "POST",
    target: "user",
    body: (c) => ({ friendId: c.people.creator.user.id }),
    // No request from the creator is pending for anyone.
    expect: (c) => (c.role === "anonymous" ? 401 : 404),
  })),

  // --- Settlement pages (docs/product-rules.md#screens; docs/product-rules.md#settlement) --------------------------------
  {
    route: "/settle-bet/:id",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c)
          ? 404
          : c.role === "creator"
            ? 200
            : 403,
  },
  {
    route: "/settle-bet/:id",
    method: "POST",
    states: SETTLE_STATES,
    body: (c) => ({ winnerId: c.people.participant.user.id }),
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c)
          ? 404
          : c.role !== "creator"
            ? 403
            : c.state === "active"
              ? { status: 302, location: `/payment/${c.bet.id}` }
              : 409,
    allowed: (c) => c.role === "creator" && c.state === "active",
  },
  {
    route: "/propose-settlement/:id",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c)
          ? 404
          : isParty(c)
            ? 200
            : 403,
  },
  {
    route: "/propose-settlement/:id",
    method: "POST",
    states: SETTLE_STATES,
    body: (c) => ({ winnerId: c.people.creator.user.id }),
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state === "active"
              ? { status: 302, location: `/settlements/${c.bet.id}/approve` }
              : 409,
    allowed: (c) => isParty(c) && c.state === "active",
  },
  {
    route: "/settlements/:id/approve",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c)
          ? 404
          : hasSettlement(c)
            ? 200
            : 404,
  },
  {
    route: "/settlements/:id/approve",
    method: "POST",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c) || !hasSettlement(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state === "proposed" && c.role === "participant"
              ? // The creator proposed themself: the participant loses and pays.
                { status: 302, location: `/payment/${c.bet.id}` }
              : 409,
    allowed: (c) => c.state === "proposed" && c.role === "participant",
  },
  {
    route: "/settlements/:id/reject",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c) || !hasSettlement(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state === "proposed"
              ? 200
              : 409,
  },
  {
    route: "/settlements/:id/reject",
    method: "POST",
    states: SETTLE_STATES,
    body: () => ({ rejectionReason: "Not what happened" }),
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : hidden(c) || !hasSettlement(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state === "proposed"
              ? { status: 302, location: `/bet/${c.bet.id}` }
              : 409,
    allowed: (c) => isParty(c) && c.state === "proposed",
  },

  // --- The referee (docs/product-rules.md#referee): nobody here is one, and no bet names one -----------
  {
    route: "/bet/:id/rule",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) => (c.role === "anonymous" ? toAuth(c) : hidden(c) ? 404 : 403),
  },
  {
    route: "/bet/:id/rule",
    method: "POST",
    states: SETTLE_STATES,
    body: (c) => ({ winnerId: c.people.creator.user.id }),
    expect: (c) => (c.role === "anonymous" ? toAuth(c) : hidden(c) ? 404 : 403),
    allowed: () => false,
  },
  {
    route: "/api/bets/:id/rule",
    method: "POST",
    states: SETTLE_STATES,
    body: (c) => ({ winnerId: c.people.creator.user.id }),
    expect: (c) => (c.role === "anonymous" ? 401 : hidden(c) ? 404 : 403),
    allowed: () => false,
  },
  {
    route: "/api/bets/:id/refer",
    method: "POST",
    states: SETTLE_STATES,
    // A party of a bet without a referee: 409 'This bet has no referee.'
    expect: (c) =>
      c.role === "anonymous" ? 401 : hidden(c) ? 404 : !isParty(c) ? 403 : 409,
    allowed: () => false,
  },
  // --- Talk on a bet (docs/product-rules.md#messages): only its people, whatever its visibility -----------
  {
    route: "/api/bets/:id/messages",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous" ? 401 : hidden(c) ? 404 : !isParty(c) ? 403 : 200,
  },
  {
    route: "/api/bets/:id/messages",
    method: "POST",
    states: SETTLE_STATES,
    body: () => ({ body: "Did you see the score?" }),
    expect: (c) =>
      c.role === "anonymous" ? 401 : hidden(c) ? 404 : !isParty(c) ? 403 : 201,
    allowed: isParty,
  },
  // {messageId} is filled with the bet's id: no message of the bet has it,
  // so its people get 404 (tests/api/messages.test.ts deletes real ones).
  {
    route: "/api/bets/:id/messages/:messageId",
    method: "DELETE",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous" ? 401 : hidden(c) ? 404 : !isParty(c) ? 403 : 404,
    allowed: () => false,
  },
  // A photo's address: 404 to anyone but the bet's people, and to them for
  // a photo that is not there ({messageId} and {photoId} are the bet's id
  // here; tests/api/messages.test.ts fetches real ones).
  {
    route: "/api/bets/:id/messages/:messageId/photos/:photoId",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) => (c.role === "anonymous" ? 401 : 404),
  },
  // --- Getting paid (docs/product-rules.md#getting-paid): only the winner (the participant) nudges ----------
  {
    route: "/api/bets/:id/nudge",
    method: "POST",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? 401
        : hidden(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state !== "settled"
              ? 409
              : c.role === "participant"
                ? 204
                : 403,
    allowed: (c) => c.state === "settled" && c.role === "participant",
  },

  // --- Payment pages: only the loser of a settled bet pays (docs/product-rules.md#paying) -----------
  ...["/payment/:id", "/checkout/:id"].map((route): Row => ({
    route,
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) => (c.role === "anonymous" ? toAuth(c) : payable(c, 200)),
  })),
  {
    route: "/payment/:id",
    method: "POST",
    states: SETTLE_STATES,
    body: () => ({ method: "card" }),
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : payable(c, { status: 302, location: `/checkout/${c.bet.id}` }),
  },
  {
    route: "/checkout/:id",
    method: "POST",
    states: SETTLE_STATES,
    body: () => ({
      cardNumber: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "123",
    }),
    expect: (c) =>
      c.role === "anonymous"
        ? toAuth(c)
        : payable(c, { status: 302, location: "/my-bets" }),
    allowed: (c) => c.state === "settled" && c.role === "creator",
  },

  // --- Settlement and payment API (docs/api.md) ----------------------------------------
  {
    route: "/api/settlements/:id",
    method: "GET",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous" ? 401 : hidden(c) || !hasSettlement(c) ? 404 : 200,
  },
  {
    route: "/api/bets/:id/propose-settlement",
    method: "POST",
    states: SETTLE_STATES,
    body: (c) => ({ winnerId: c.people.creator.user.id }),
    expect: (c) =>
      c.role === "anonymous"
        ? 401
        : hidden(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state === "active"
              ? 201
              : 409,
    allowed: (c) => isParty(c) && c.state === "active",
  },
  {
    route: "/api/settlements/:id/approve",
    method: "POST",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? 401
        : hidden(c) || !hasSettlement(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state === "proposed" && c.role === "participant"
              ? 200
              : 409,
    allowed: (c) => c.state === "proposed" && c.role === "participant",
  },
  {
    route: "/api/settlements/:id/reject",
    method: "POST",
    states: SETTLE_STATES,
    expect: (c) =>
      c.role === "anonymous"
        ? 401
        : hidden(c) || !hasSettlement(c)
          ? 404
          : !isParty(c)
            ? 403
            : c.state === "proposed"
              ? 204
              : 409,
    allowed: (c) => isParty(c) && c.state === "proposed",
  },
  {
    route: "/api/bets/:id/settle",
    method: "POST",
    states: SETTLE_STATES,
    body: (c) => ({ winnerId: c.people.participant.user.id }),
    expect: (c) =>
      c.role === "anonymous"
        ? 401
        : hidden(c)
          ? 404
          : c.role !== "creator"
            ? 403
            : c.state === "active"
              ? 200
              : 409,
    allowed: (c) => c.role === "creator" && c.state === "active",
  },
  {
    route: "/api/bets/:id/record-payment",
    method: "POST",
    states: SETTLE_STATES,
    body: () => ({ paymentIntentId: "pi_demo_unknown", amount: 20 }),
    // Even the loser cannot record an intent the provider never confirmed.
    expect: (c) => (c.role === "anonymous" ? 401 : payable(c, 409)),
    allowed: () => false,
  },
  {
    route: "/api/create-payment-intent",
    method: "POST",
    states: SETTLE_STATES,
    body: (c) => ({ betId: c.bet.id }),
    expect: (c) => (c.role === "anonymous" ? 401 : payable(c, 200)),
  },
];
