// The authorisation matrix: every route in app/routes.ts that takes a
// parameter × {anonymous, stranger, creator, participant} × bet states and
// visibilities → the status DESIGN §3/§3a and SPEC §6 give. Each cell gets a
// fresh bet, so one cell's change cannot hide another's answer. A route with
// a parameter and no row here fails the first test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAppRoutes, fillPath, type Method } from "../support/route-table";
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
  /** For a write: who may make it. Anyone else's attempt must change nothing. */
  allowed?: (cell: Cell) => boolean;
};

const ROLES: Role[] = ["anonymous", "stranger", "creator", "participant"];
const KINDS: [BetState, Visibility][] = [
  ["pending", "public"],
  ["pending", "private"],
  ["active", "public"],
  ["active", "private"],
  ["settled", "public"],
  ["settled", "private"],
];

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
];

// --- Running the matrix ---------------------------------------------------------

const appRoutes = listAppRoutes();
const served = new Set(appRoutes.map((r) => r.path));
const canSettle = served.has("/api/bets/:id/settle");
const kinds = KINDS.filter(([state]) => state !== "settled" || canSettle);

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
  return { status: res.status, bet: res.data };
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

describe.each(
  runnable.map(
    (r) =>
      [
        `${r.method} ${r.path ?? r.route}${r.query ? " ?code" : ""}${r.body?.({} as Cell)?.intent ? ` (${r.body({} as Cell).intent})` : ""}`,
        r,
      ] as const,
  ),
)("%s", (_name, row) => {
  const kindsHere: [BetState, Visibility][] =
    row.target === "user" ? [["pending", "public"]] : kinds;
  it.each(kindsHere)("on a %s %s bet", async (state, visibility) => {
    const failures: string[] = [];
    for (const role of ROLES) {
      // Nobody has joined a pending bet yet: there is no participant.
      if (role === "participant" && state === "pending") continue;
      const bet = await betIn(
        state,
        visibility,
        people.creator,
        people.participant,
      );
      const base =
        row.path ??
        (row.target === "user"
          ? fillPath(row.route, { id: people.creator.user.id })
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
      if (want === null) continue;
      const before = row.allowed?.(cell) === false ? await snapshot(bet) : null;
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
    }
    expect(failures).toEqual([]);
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
