// GET /api/events (docs/api.md, docs/product-rules.md#live-pages): who
// hears what, the heartbeat, the catch-up after a reconnect, and events
// made by another process on the same database.
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import { openEventStream, type EventStream } from "../support/event-stream";
import { MAX_STREAMS_PER_USER } from "~/models/notifications/live-streams.server";

const HEARTBEAT_MS = 300;
const server = useServer({ LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS) });

const open: EventStream[] = [];
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
});
async function stream(client: Client, options?: { lastEventId?: string }) {
  const s = await openEventStream(client, options);
  open.push(s);
  return s;
}

async function privateBet(client: Client) {
  const res = await client.post("/api/bets", {
    title: "Rain on Saturday",
    description: "It rains in town on Saturday.",
    amount: 5,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "private",
  });
  expect(res.status, res.text).toBe(201);
  return res.data as { id: number; code: string };
}

/** Resolves once the server has ended `s`, or fails after `ms`. */
function endsWithin(s: EventStream, ms: number) {
  return Promise.race([
    s.ended.then(() => "ended"),
    new Promise((r) => setTimeout(() => r("still open"), ms)),
  ]);
}

const betEvent = (betId: number) => (e: { data: Record<string, unknown> }) =>
  e.data.type === "bet" && e.data.betId === betId;

describe("GET /api/events", () => {
  it("401 JSON when signed out", async () => {
    const res = await new Client(server.url).get("/api/events");
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.data).toEqual({ error: "Authentication required" });
  });

  it("is an uncompressed, unbuffered event stream with a heartbeat", async () => {
    const alice = await signUp(server.url);
    const s = await stream(alice.client);
    expect(s.status).toBe(200);
    expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(s.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(s.headers.get("x-accel-buffering")).toBe("no");
    // fetch asks for gzip, br: the stream must still come as it is.
    expect(s.headers.get("content-encoding")).toBeNull();
    // The opening comment, then heartbeats every LIVE_HEARTBEAT_MS.
    await s.waitForComments(3, HEARTBEAT_MS * 6);
    expect(s.comments.filter((c) => c === ": ").length).toBeGreaterThan(1);
    // A HEAD is answered and ends: no stream is held open for it.
    const head = await alice.client.request("HEAD", "/api/events");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/event-stream/);
  });

  it("tells both sides of a bet each move, and a stranger nothing", async () => {
    const alice = await signUp(server.url);
    const bob = await signUp(server.url);
    const stranger = await signUp(server.url);
    const bet = await privateBet(alice.client);
    const aliceStream = await stream(alice.client);
    const bobStream = await stream(bob.client);
    const strangerStream = await stream(stranger.client);

    // Bob opens the code and joins: alice's page hears of it, and of her activity.
    expect((await bob.client.get(`/api/bets/code/${bet.code}`)).status).toBe(
      200,
    );
    const joined = await bob.client.post(`/api/bets/${bet.id}/join`, {});
    expect(joined.status, joined.text).toBe(200);
    const joinEvent = await aliceStream.waitFor(betEvent(bet.id));
    await aliceStream.waitFor((e) => e.data.type === "activity");
    expect(joinEvent.data).toEqual({ type: "bet", betId: bet.id });
    expect(Number(joinEvent.id)).toBeGreaterThan(0);

    // Bob proposes himself: a new bet event for alice.
    const propose = await bob.client.post(
      `/api/bets/${bet.id}/propose-settlement`,
      { winnerId: bob.user.id },
    );
    expect(propose.status, propose.text).toBe(201);
    await aliceStream.waitFor(
      (e) => betEvent(bet.id)(e) && Number(e.id) > Number(joinEvent.id),
    );

    // Alice approves: bob hears it.
    const bobSeen = bobStream.events.length;
    const approve = await alice.client.post(
      `/api/settlements/${bet.id}/approve`,
    );
    expect(approve.status, approve.text).toBe(200);
    await bobStream.waitFor(
      (e) => betEvent(bet.id)(e) && bobStream.events.indexOf(e) >= bobSeen,
    );

    // Friends: a request tells both people.
    const ask = await stranger.client.post("/api/friends", {
      friendId: alice.user.id,
    });
    expect(ask.status, ask.text).toBe(201);
    await aliceStream.waitFor((e) => e.data.type === "friends");
    await strangerStream.waitFor((e) => e.data.type === "friends");

    // The stranger heard of their own friend request and nothing else: not a
    // word about the private bet, nor about alice's or bob's activity.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(strangerStream.events.map((e) => e.data)).toEqual([
      { type: "friends" },
    ]);
    expect(bobStream.events.some((e) => e.data.type === "friends")).toBe(false);
  });

  it("catches up after a reconnect with Last-Event-ID", async () => {
    const alice = await signUp(server.url);
    const bob = await signUp(server.url);
    const bet = await privateBet(alice.client);
    await bob.client.get(`/api/bets/code/${bet.code}`);

    const first = await stream(alice.client);
    expect((await bob.client.post(`/api/bets/${bet.id}/join`, {})).status).toBe(
      200,
    );
    const seen = await first.waitFor(betEvent(bet.id));
    await first.waitFor((e) => e.data.type === "activity");
    const lastId = first.events[first.events.length - 1]!.id;
    first.close();

    // While alice is away bob proposes.
    expect(
      (
        await bob.client.post(`/api/bets/${bet.id}/propose-settlement`, {
          winnerId: bob.user.id,
        })
      ).status,
    ).toBe(201);

    // Back with the last id she saw: what she missed comes at once, nothing
    // she had already seen comes again.
    const again = await stream(alice.client, { lastEventId: lastId });
    const missed = await again.waitFor(betEvent(bet.id), 1_500);
    expect(Number(missed.id)).toBeGreaterThan(Number(lastId));
    expect(again.events.every((e) => Number(e.id) > Number(lastId))).toBe(true);
    expect(again.events.some((e) => e.id === seen.id)).toBe(false);
  });
});

describe("a stream outlives no session", () => {
  // The heartbeat is 300 ms here, so the sessions behind open streams are
  // looked up every 300 ms: "a few seconds" leaves room for a slow machine.
  it("a sign-out ends the stream opened with that session", async () => {
    const alice = await signUp(server.url);
    const s = await stream(alice.client);
    expect(s.status).toBe(200);
    expect((await alice.client.post("/api/logout", {})).status).toBe(204);
    expect(await endsWithin(s, 5_000)).toBe("ended");
  });

  it("signing out everywhere else ends the other device's stream, not this one's", async () => {
    const alice = await signUp(server.url);
    const phone = new Client(server.url);
    const login = await phone.post("/api/login", {
      username: alice.user.username,
      password: "secret123",
    });
    expect(login.status, login.text).toBe(200);
    const here = await stream(alice.client);
    const there = await stream(phone);
    const out = await alice.client.post("/api/user/sessions/revoke-others", {});
    expect(out.status, out.text).toBe(204);
    expect(await endsWithin(there, 5_000)).toBe("ended");
    expect(await endsWithin(here, 1_000)).toBe("still open");
  });

  it("closing the account ends its streams", async () => {
    const alice = await signUp(server.url);
    const phone = new Client(server.url);
    await phone.post("/api/login", {
      username: alice.user.username,
      password: "secret123",
    });
    const here = await stream(alice.client);
    const there = await stream(phone);
    const closed = await alice.client.request("DELETE", "/api/user", {
      json: { password: "secret123" },
    });
    expect(closed.status, closed.text).toBe(204);
    expect(await endsWithin(here, 5_000)).toBe("ended");
    expect(await endsWithin(there, 5_000)).toBe("ended");
  });
});

describe("an event whose transaction commits after a higher id was read", () => {
  // PostgreSQL hands an id out at insert and shows the row at commit; SQLite
  // commits one write at a time, so there the order cannot differ.
  it("still reaches the open stream, and a stream resumed from the id seen meanwhile", async (context) => {
    const url = server.databaseEnv.DATABASE_URL;
    if (!url) return context.skip();
    const alice = await signUp(server.url);
    const first = await stream(alice.client);

    const held = new pg.Client({ connectionString: url });
    await held.connect();
    const hold = async () => {
      await held.query("BEGIN");
      await held.query(
        "INSERT INTO live_events (user_id, type) VALUES ($1, 'friends')",
        [alice.user.id],
      );
    };
    try {
      // A low id, held in an open transaction; a higher one (her next bet)
      // commits and is read and sent.
      await hold();
      const second = await privateBet(alice.client);
      await first.waitFor(betEvent(second.id));
      await new Promise((r) => setTimeout(r, 600)); // a few polls pass it by
      await held.query("COMMIT");
      await first.waitFor((e) => e.data.type === "friends");

      // Again, but the tab is gone when the low id commits: it comes back
      // with the last id it was sent and must hear of it.
      await hold();
      const third = await privateBet(alice.client);
      await first.waitFor(betEvent(third.id));
      const lastId = first.events[first.events.length - 1]!.id;
      first.close();
      await held.query("COMMIT");
      const back = await stream(alice.client, { lastEventId: lastId });
      await back.waitFor((e) => e.data.type === "friends");
    } finally {
      await held.end();
    }
  });
});

describe("events made by another process", () => {
  // A second server process on the same database file: a change made
  // through it reaches a stream held by the first (and the other way round).
  const other = useServer(() => ({
    ...server.databaseEnv,
    LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
  }));

  it("reaches a stream held by either process", async () => {
    const alice = await signUp(server.url);
    const bob = await signUp(server.url);
    const bobThere = new Client(other.url);
    const login = await bobThere.post("/api/login", {
      username: bob.user.username,
      password: "secret123",
    });
    expect(login.status, login.text).toBe(200);
    const bet = await privateBet(alice.client);
    await bob.client.get(`/api/bets/code/${bet.code}`);

    const aliceHere = await stream(alice.client);
    const bobOnOther = await stream(bobThere);
    // Bob joins through the other process: alice's stream here hears it.
    expect((await bobThere.post(`/api/bets/${bet.id}/join`, {})).status).toBe(
      200,
    );
    await aliceHere.waitFor(betEvent(bet.id));
    // Alice's move here reaches bob's stream on the other process.
    const propose = await alice.client.post(
      `/api/bets/${bet.id}/propose-settlement`,
      { winnerId: alice.user.id },
    );
    expect(propose.status, propose.text).toBe(201);
    await bobOnOther.waitFor(betEvent(bet.id));
  });
});

describe("events made by the sweep", () => {
  // Windows of seconds (docs/operations.md#environment): the proposal's
  // answer window runs out while both sides watch.
  const swept = useServer({
    RESPONSE_WINDOW_S: "2",
    SWEEP_INTERVAL_S: "1",
    LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
  });

  it("an answer window running out tells both sides", async () => {
    const alice = await signUp(swept.url);
    const bob = await signUp(swept.url);
    const bet = await privateBet(alice.client);
    await bob.client.get(`/api/bets/code/${bet.code}`);
    expect((await bob.client.post(`/api/bets/${bet.id}/join`, {})).status).toBe(
      200,
    );
    const propose = await bob.client.post(
      `/api/bets/${bet.id}/propose-settlement`,
      { winnerId: bob.user.id },
    );
    expect(propose.status, propose.text).toBe(201);
    // Streams opened after the proposal: only the sweep can tell them more.
    const aliceStream = await stream(alice.client);
    const bobStream = await stream(bob.client);
    await aliceStream.waitFor(betEvent(bet.id), 8_000);
    await bobStream.waitFor(betEvent(bet.id), 8_000);
    const settled = await alice.client.get(`/api/settlements/${bet.id}`);
    expect(settled.data.resolution).toBe("timeout");
  });
});

describe("how many streams one person may hold", () => {
  const limited = useServer({ RATE_LIMITS: "on" });

  it(`the ${MAX_STREAMS_PER_USER + 1}th stream of one person is 429 JSON with Retry-After, at once; closing one frees a place`, async () => {
    const alice = await signUp(limited.url);
    const streams = await Promise.all(
      Array.from({ length: MAX_STREAMS_PER_USER }, () => stream(alice.client)),
    );
    for (const s of streams) expect(s.status).toBe(200);
    const refused = await alice.client.get("/api/events", {
      Accept: "text/event-stream",
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toMatch(/application\/json/);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(refused.data).toEqual({ error: "Too many open event streams" });

    streams[0]!.close();
    await expect
      .poll(async () => {
        const again = await openEventStream(alice.client);
        again.close();
        return again.status;
      })
      .toBe(200);
  });
});

describe("many streams opened at once by one person", () => {
  const limited = useServer({ RATE_LIMITS: "on" });

  it(`40 at once: at most ${MAX_STREAMS_PER_USER} open, the rest 429, and every open one is told`, async () => {
    const alice = await signUp(limited.url);
    const earlier = await privateBet(alice.client);
    // Each comes back from before that bet, so each reads what it missed
    // while the others open.
    const all = await Promise.all(
      Array.from({ length: 40 }, () =>
        stream(alice.client, { lastEventId: "0" }),
      ),
    );
    const accepted = all.filter((s) => s.status === 200);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThanOrEqual(MAX_STREAMS_PER_USER);
    for (const s of all) expect([200, 429]).toContain(s.status);
    for (const s of accepted) await s.waitFor(betEvent(earlier.id));
    const bet = await privateBet(alice.client);
    for (const s of accepted) await s.waitFor(betEvent(bet.id), 5_000);
  });
});
