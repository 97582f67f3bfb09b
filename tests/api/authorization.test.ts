// The authorisation matrix: every route in app/routes.ts that takes a
// parameter × {anonymous, stranger, creator, participant} × bet states and
// visibilities → the status DESIGN §3/§3a and SPEC §6 give. Each cell gets a
// fresh bet, so one cell's change cannot hide another's answer. A route with
// a parameter and no row here fails the first test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  API_CALLS,
  fillPath,
  listAppRoutes,
  type Method,
} from "../support/route-table";
import { Client, startServer, type TestServer } from "../support/server";
import {
  betIn,
  inTwoDays,
  person,
  type BetRef,
  type BetState,
  type Person,
} from "../support/world";

type Role = "anonymous" | "stranger" | "creator" | "participant";
type Visibility = "public" | "private";
type Cell = {
  role: Role;
  state: BetState;
  visibility: Visibility;
  bet: BetRef;
  path: string;
  people: People;
};
type Want = number | { status: number; location: string } | null;
type People = { creator: Person; participant: Person; stranger: Person };

type Row = {
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

const ROLES: Role[] = ["anonymous", "stranger", "creator", "participant"];
const DEFAULT_STATES: BetState[] = ["pending", "active", "settled"];
const VISIBILITIES: Visibility[] = ["public", "private"];

// --- Answers shared by many rows ---------------------------------------------

const toAuth = (c: Cell): Want => ({
  status: 302,
  location: `/auth?return_to=${encodeURIComponent(c.path)}`,
});
const isParty = (c: Cell) => c.role === "creator" || c.role === "participant";
/** Ruling 13: a private bet is a 404 to anyone not in it, like a missing one. */
const hidden = (c: Cell) => c.visibility === "private" && !isParty(c);

/** A protected page that reads the bet. */
const betPage = (c: Cell): Want =>
  c.role === "anonymous" ? toAuth(c) : hidden(c) ? 404 : 200;
/** An API read of the bet. */
const betApi = (c: Cell): Want =>
  c.role === "anonymous" ? 401 : hidden(c) ? 404 : 200;

/** SPEC §6: only the creator edits or deletes, only while pending and alone. */
function editOrDelete(c: Cell, ok: number): Want {
  if (c.role === "anonymous") return 401;
  if (hidden(c)) return 404;
  if (c.role !== "creator") return 403;
  return c.state === "pending" ? ok : 409;
}

/**
 * The edit screen's forms: SPEC §6 and §8 send a refused person to /my-bets
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
  // SPEC §8: 'Access denied' / 'Cannot edit' toasts and back to /my-bets.
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
    // The code opens the bet for whoever has it (ruling 13).
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
      // No session needed; a private bet only with its code (ruling 13a).
      {
        route,
        method: "GET",
        expect: (c) => (c.visibility === "private" ? 404 : 200),
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

  // --- Settlement pages (SPEC §2, §6; rulings 7, 8) --------------------------------
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

  // --- Payment pages: only the loser of a settled bet pays (ruling 9) -----------
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

  // --- Settlement and payment API (DESIGN §3a) ----------------------------------------
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

// --- Running the matrix ---------------------------------------------------------

const appRoutes = listAppRoutes();
const served = new Set(appRoutes.map((r) => r.path));
const canSettle = served.has("/api/bets/:id/settle");
const kindsOf = (row: Row): [BetState, Visibility][] =>
  row.target === "user"
    ? [["pending", "public"]]
    : (row.states ?? DEFAULT_STATES)
        .filter((s) => canSettle || (s !== "settled" && s !== "proposed"))
        .flatMap((s) =>
          VISIBILITIES.map((v): [BetState, Visibility] => [s, v]),
        );

let server: TestServer;
let people: People;
beforeAll(async () => {
  server = await startServer();
  people = {
    creator: await person(server.url, "cr"),
    participant: await person(server.url, "pa"),
    stranger: await person(server.url, "st"),
  };
});
afterAll(() => server?.stop());

describe("the matrix", () => {
  it("has a row for every route in app/routes.ts that takes a parameter", () => {
    const covered = new Set(MATRIX.map((r) => r.route));
    const missing = appRoutes
      .filter((r) => r.params.length > 0 && !covered.has(r.path))
      .map((r) => r.path);
    expect(missing).toEqual([]);
  });
});

function clientOf(role: Role): Client {
  if (role === "anonymous") return new Client(server.url);
  return people[role].client;
}

async function call(row: Row, cell: Cell) {
  const client = clientOf(cell.role);
  const api = row.route.startsWith("/api/");
  const body = row.body?.(cell);
  if (row.method === "GET" || row.method === "DELETE")
    return client.request(row.method, cell.path, {
      headers: api ? {} : { Accept: "text/html" },
    });
  if (api) return client.request(row.method, cell.path, { json: body ?? {} });
  return client.request(row.method, cell.path, {
    body: new URLSearchParams(
      Object.entries(body ?? {}).map(([k, v]) => [k, String(v)]),
    ).toString(),
    headers: {
      Accept: "text/html",
      "Content-Type": "application/x-www-form-urlencoded",
    },
  });
}

/** The bet as its creator reads it: what a refused write must leave alone. */
async function snapshot(bet: BetRef) {
  const res = await people.creator.client.get(`/api/bets/${bet.id}`);
  const settlement = served.has("/api/settlements/:id")
    ? await people.creator.client.get(`/api/settlements/${bet.id}`)
    : null;
  return {
    status: res.status,
    bet: res.data,
    settlement: settlement && [settlement.status, settlement.data],
  };
}

function nameOf(r: Row) {
  let intent: unknown;
  try {
    intent = r.body?.({} as Cell)?.intent;
  } catch {
    intent = undefined;
  }
  return `${r.method} ${r.path ?? r.route}${r.query ? " ?code" : ""}${intent ? ` (${String(intent)})` : ""}`;
}

/** What a person must never see in someone else's answer. */
function expectNoLeak(text: string, cell: Cell, row: Row) {
  for (const role of ["creator", "participant", "stranger"] as const) {
    if (role === cell.role) continue;
    expect(text, `${role}'s email leaked`).not.toContain(
      people[role].user.email,
    );
  }
  const opensByCode = row.route.includes(":code") || row.query !== undefined;
  if (hidden(cell) && !opensByCode)
    expect(text, "a private bet's title leaked").not.toContain(cell.bet.title);
}

const runnable = MATRIX.filter((r) => served.has(r.route));

describe.each(runnable.map((r) => [nameOf(r), r] as const))(
  "%s",
  (_name, row) => {
    it.each(kindsOf(row))("on a %s %s bet", async (state, visibility) => {
      const failures: string[] = [];
      // Each role gets its own fresh bet, so the four can run at once.
      await Promise.all(
        ROLES.map(async (role) => {
          // Nobody has joined a pending bet yet: there is no participant.
          if (role === "participant" && state === "pending") return;
          const bet = await betIn(
            state,
            visibility,
            people.creator,
            people.participant,
          );
          const base =
            row.path ??
            (row.target === "user"
              ? fillPath(row.route, {
                  id: people.creator.user.id,
                  userId: people.creator.user.id,
                })
              : fillPath(row.route, { id: bet.id, code: bet.code }));
          const cell: Cell = {
            role,
            state,
            visibility,
            bet,
            path: base + (row.query?.(bet) ?? ""),
            people,
          };
          const want = row.expect(cell);
          if (want === null) return;
          const before =
            row.allowed?.(cell) === false ? await snapshot(bet) : null;
          const res = await call(row, cell);
          if (before !== null)
            expect(
              await snapshot(bet),
              `${role}'s refused ${row.method} changed the bet`,
            ).toEqual(before);
          const status = typeof want === "number" ? want : want.status;
          const location = typeof want === "number" ? null : want.location;
          const got = `${res.status}${res.headers.get("location") ? ` → ${res.headers.get("location")}` : ""}`;
          const expected = `${status}${location ? ` → ${location}` : ""}`;
          if (got !== expected)
            failures.push(
              `${role}: expected ${expected}, got ${got} ${res.text.slice(0, 120)}`,
            );
          expectNoLeak(res.text, cell, row);
        }),
      );
      expect(failures).toEqual([]);
    });
  },
);

describe("anonymous visitors, on every route without a parameter", () => {
  // The four public pages of ruling 18, the help page and the health check.
  const PUBLIC_PAGES = new Set(["/auth", "/help/fees", "/help", "/healthz"]);
  const pages = appRoutes.filter((r) => !r.api && r.params.length === 0);

  it.each(pages.map((r) => [r.path, r] as const))(
    "page %s: protected ones send a visitor to /auth?return_to",
    async (_p, route) => {
      const res = await new Client(server.url).get(`${route.path}?x=1`, {
        Accept: "text/html",
      });
      if (PUBLIC_PAGES.has(route.path)) expect(res.status).toBe(200);
      else if (route.path === "/bench/bare")
        // The benchmark's bare yardstick page: not part of the product.
        expect(res.status).toBeLessThan(500);
      else if (route.path === "/logout")
        expect(res.status).toBe(302); // a GET only sends you home
      else {
        expect(
          route.guarded,
          `${route.path} is outside the guarded layout`,
        ).toBe(true);
        expect(res.status).toBe(302);
        expect(res.headers.get("location")).toBe(
          `/auth?return_to=${encodeURIComponent(`${route.path}?x=1`)}`,
        );
      }
    },
  );

  it.each(
    API_CALLS.filter((c) => served.has(c.route)).map(
      (c) => [`${c.method} ${c.path ?? c.route}`, c] as const,
    ),
  )("%s: 401 unless DESIGN §3 makes it public", async (_n, c) => {
    const p = c.path ?? fillPath(c.route, { id: 1, code: "ABCDEF" });
    const res = await new Client(server.url).request(c.method, p, {
      ...(c.method === "GET" || c.method === "DELETE" ? {} : { json: {} }),
    });
    if (c.access === "session") {
      expect(res.status).toBe(401);
      expect(res.data).toEqual({ error: "Authentication required" });
    } else expect(res.status).not.toBe(401);
  });
});

describe("a stranger's view of other people's money and activity", () => {
  it("shows none of their payments, transactions, activity or friends", async () => {
    if (!served.has("/api/financial-history")) return;
    const { creator, participant, stranger } = people;
    const bet = await betIn("settled", "private", creator, participant);
    // The creator conceded; they pay through the demo provider.
    const intent = await creator.client.post("/api/create-payment-intent", {
      betId: bet.id,
    });
    expect(intent.status, intent.text).toBe(200);
    const confirm = await creator.client.post("/api/payments/demo/confirm", {
      paymentIntentId: intent.data.paymentIntentId,
      cardNumber: "4242 4242 4242 4242",
      expiry: "12/40",
      cvc: "123",
    });
    expect(confirm.status, confirm.text).toBe(200);
    const paid = await creator.client.post(
      `/api/bets/${bet.id}/record-payment`,
      { paymentIntentId: intent.data.paymentIntentId, amount: 20 },
    );
    expect(paid.status, paid.text).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const range = `startDate=2000-01-01&endDate=${today}`;
    const mine = await creator.client.get(`/api/financial-history?${range}`);
    expect(mine.data.transactions.length).toBeGreaterThan(0);
    const theirs = await stranger.client.get(`/api/financial-history?${range}`);
    expect(theirs.status).toBe(200);
    expect(theirs.data.transactions).toEqual([]);
    expect(theirs.data.summary.losses).toBe(0);
    const csv = await stranger.client.get(
      `/api/financial-history.csv?${range}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain(bet.title);
    const activity = await stranger.client.get("/api/activity");
    expect(activity.status).toBe(200);
    expect(activity.text).not.toContain(bet.title);
    for (const page of [
      "/notifications",
      "/notifications?tab=finances",
      "/financial-history",
      "/profile",
    ]) {
      const html = await stranger.client.get(page, { Accept: "text/html" });
      expect(html.status, page).toBe(200);
      expect(html.text, page).not.toContain(bet.title);
      expect(html.text, page).not.toContain(creator.user.email);
    }
    const search = await stranger.client.get(
      `/api/users/search?q=${encodeURIComponent(creator.user.username.slice(0, 6))}`,
    );
    expect(search.status).toBe(200);
    expect(search.text).not.toContain(creator.user.email);
    for (const u of search.data as Record<string, unknown>[])
      expect(Object.keys(u).sort()).toEqual(
        ["avatarUrl", "id", "lossCount", "username", "winCount"].sort(),
      );
  });
});

describe("a stranger's view of other people", () => {
  it("never includes their email or their private bets", async () => {
    const secret = await betIn(
      "active",
      "private",
      people.creator,
      people.participant,
    );
    const { client } = people.stranger;
    const id = people.creator.user.id;
    const answers = [
      await client.get(`/api/users/${id}`),
      await client.get("/api/bets"),
      await client.get("/api/user/bets/created"),
      await client.get("/api/user/bets/joined"),
      await client.get("/api/user/bets/completed"),
      await client.get("/search", { Accept: "text/html" }),
      await client.get("/my-bets", { Accept: "text/html" }),
      await client.get("/", { Accept: "text/html" }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(people.creator.user.email);
      expect(res.text).not.toContain(people.participant.user.email);
      expect(res.text).not.toContain(secret.title);
    }
    expect(Object.keys(answers[0]!.data).sort()).toEqual(
      ["avatarUrl", "id", "lossCount", "username", "winCount"].sort(),
    );
  });
});
