// The authorisation matrix: every route in app/routes.ts that takes a
// parameter × {anonymous, stranger, creator, participant} × bet states and
// visibilities → the status docs/api.md and docs/product-rules.md#roles give (the rows are in
// tests/support/authorization-matrix.ts). Each cell gets a fresh bet, so one
// cell's change cannot hide another's answer. A route with a parameter and
// no row fails the first test.
import { beforeAll, describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import {
  DEFAULT_STATES,
  MATRIX,
  ROLES,
  VISIBILITIES,
  hidden,
  type Cell,
  type People,
  type Role,
  type Row,
  type Visibility,
} from "../support/authorization-matrix";
import { API_CALLS, fillPath, listAppRoutes } from "../support/route-table";
import { Client } from "../support/server";
import { betIn, person, type BetRef, type BetState } from "../support/world";

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

const server = useServer();
let people: People;
beforeAll(async () => {
  people = {
    creator: await person(server.url, "cr"),
    participant: await person(server.url, "pa"),
    stranger: await person(server.url, "st"),
  };
});

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
  // The four public pages of docs/product-rules.md#forms-and-messages, the help page and the health check.
  // The confirmation link's page works signed out; the demo outbox is public
  // in demo mode (these servers run it) and a 404 elsewhere.
  const PUBLIC_PAGES = new Set([
    "/auth",
    "/help/fees",
    "/help",
    "/healthz",
    "/verify-email",
    "/forgot-password",
    "/reset-password",
    "/demo/outbox",
  ]);
  const pages = appRoutes.filter((r) => !r.api && r.params.length === 0);

  it.each(pages.map((r) => [r.path, r] as const))(
    "page %s: protected ones send a visitor to /auth?return_to",
    async (_p, route) => {
      const res = await new Client(server.url).get(`${route.path}?x=1`, {
        Accept: "text/html",
      });
      if (PUBLIC_PAGES.has(route.path)) expect(res.status).toBe(200);
      // Sign-out and the language picker take posts; a GET only sends
      // anyone home (the picker is public: a visitor picks a language too).
      else if (route.path === "/logout" || route.path === "/language")
        expect(res.status).toBe(302);
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
  )("%s: 401 unless docs/api.md makes it public", async (_n, c) => {
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
        [
          "avatarUrl",
          "id",
          "lossCount",
          "paymentRecord",
          "username",
          "winCount",
        ].sort(),
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
      [
        "avatarUrl",
        "id",
        "lossCount",
        "paymentRecord",
        "username",
        "winCount",
      ].sort(),
    );
  });
});
