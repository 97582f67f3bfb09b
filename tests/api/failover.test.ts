// Acknowledged means kept, and a failover needs no restart
// (docs/decisions/1065-acknowledged-means-kept.md). A primary with a
// synchronous standby, and the app reaching the primary through a TCP
// stand-in for Fly's proxy (scripts/lib/tcp-relay.mjs), so the address can
// be led elsewhere as a failover leads it:
//
// - the standby stops confirming: a change of money or membership is
//   answered 503 with Retry-After, and its keyed repeat, once the standby is
//   back, is given the kept answer: one bet, not two;
// - the address leads to a standby (a node still in recovery, or a primary
//   come back as one): writes are 503, never 500, and back on the primary
//   they go through, without a restart;
// - the primary is killed and the standby promoted: writes are 503 while
//   there is no primary and go through again without a restart; what was
//   acknowledged before is there, the session too.
// Windows shortened through the environment; nothing here is timed.
// PostgreSQL half of the matrix only.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  databaseUrlOn,
  startCluster,
  startStandby,
  type Cluster,
} from "../../scripts/lib/postgres-cluster.mjs";
import { startRelay, type Relay } from "../../scripts/lib/tcp-relay.mjs";
import { signUp, startServer, type TestServer } from "../support/server";
import { onPostgres } from "../support/test-database";

const UNAVAILABLE = "Fairshake is briefly unavailable. Please try again.";
const STANDBY = "fs_standby";

// One deadline for the whole file: a repeat must send the same values.
const DEADLINE = new Date(Date.now() + 2 * 86_400_000).toISOString();
const betInput = (title: string) => ({
  title,
  description: "Kept by the standby before it is acknowledged.",
  amount: 5,
  deadline: DEADLINE,
  visibility: "public",
});

const betForm = (key: string, title: string) =>
  new URLSearchParams({
    idempotencyKey: key,
    title,
    description: "A page form sent while the standby is away.",
    amount: "5",
    deadlineDate: DEADLINE.slice(0, 10),
    visibility: "public",
  }).toString();

async function query<T>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Waits (without a clock to beat) until `check` holds; fails after a minute. */
async function until(what: string, check: () => Promise<boolean>) {
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`never: ${what}`);
}

function expectUnavailable(answer: {
  status: number;
  text: string;
  headers: Headers;
  data: unknown;
}) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(503);
  expect(answer.headers.get("Retry-After")).toBe("5");
  expect(answer.data).toEqual({ error: UNAVAILABLE });
}

describe.runIf(onPostgres())(
  "a synchronous standby, a lost primary and a promotion",
  () => {
    let primary: Cluster;
    let standby: Cluster;
    let proxy: Relay;
    let server: TestServer;
    let primaryDb: string;
    let standbyDb: string;

    const streaming = async () =>
      (
        await query<{ n: number }>(
          primary.adminUrl,
          "SELECT count(*)::int AS n FROM pg_stat_replication WHERE application_name = $1 AND state = 'streaming'",
          [STANDBY],
        )
      )[0]!.n === 1;

    /**
     * A person's session can be read on the standby. Not "the standby has
     * replayed the primary's WAL position": a hot standby restarted while a
     * transaction was open on the primary (the first case leaves one waiting
     * for its confirmation) replays commits it cannot yet show, until the
     * primary logs its next snapshot of running transactions.
     */
    const sessionOnStandby = (userId: number) =>
      until("the session is readable on the standby", async () => {
        const [row] = await query<{ n: number }>(
          standbyDb,
          "SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.id = $1",
          [userId],
        );
        return row?.n === 1;
      });

    beforeAll(async () => {
      primary = await startCluster({
        settings: { synchronous_standby_names: `ANY 1 (${STANDBY})` },
      });
      primaryDb = await createDatabase(primary.adminUrl, "failover");
      standby = await startStandby(primary, { applicationName: STANDBY });
      standbyDb = databaseUrlOn(standby, "failover");
      await until("the standby streams", streaming);
      proxy = await startRelay({ to: primary.port });
      const viaProxy = new URL(primaryDb);
      viaProxy.port = String(proxy.port);
      server = await startServer({
        DATABASE_URL: viaProxy.toString(),
        STANDBY_CONFIRM_MS: "1500",
        IDEMPOTENCY_LEASE_MS: "2000",
      });
    });
    afterAll(async () => {
      // Killed, not stopped: a failed case may leave it waiting on a database that is gone.
      await server?.kill();
      await proxy?.close();
      standby?.stop();
      primary?.stop();
    });

    it("answers 503 when the standby stops confirming, and the keyed repeat after it is back makes one bet", async () => {
      const alice = await signUp(server.url);
      const create = (key: string, title: string) =>
        alice.client.request("POST", "/api/bets", {
          json: betInput(title),
          headers: { "Idempotency-Key": key },
        });
      const confirmed = await create(crypto.randomUUID(), "Confirmed");
      expect(confirmed.status, confirmed.text).toBe(201);

      standby.pause();
      const key = crypto.randomUUID();
      const title = `Unconfirmed ${key}`;
      expectUnavailable(await create(key, title));
      // Committed on the primary, not acknowledged: its repeat is not
      // acknowledged either while no standby confirms.
      expectUnavailable(await create(key, title));
      // The page doors answer the same (with and without JavaScript).
      for (const door of ["/create-bet", "/create-bet.data"]) {
        const page = await alice.client.request("POST", door, {
          body: betForm(crypto.randomUUID(), `Page ${key}`),
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: door.endsWith(".data") ? "*/*" : "text/html",
          },
        });
        expect(page.status, `${door}: ${page.text.slice(0, 300)}`).toBe(503);
        expect(page.headers.get("Retry-After"), door).toBe("5");
      }
      // Reads go on.
      expect((await alice.client.get("/api/bets")).status).toBe(200);

      standby.resume();
      await until("the standby streams again", streaming);
      const repeat = await create(key, title);
      expect(repeat.status, repeat.text).toBe(201);
      expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
      const made = await query<{ n: number }>(
        primaryDb,
        "SELECT count(*)::int AS n FROM bets WHERE title = $1",
        [title],
      );
      expect(made[0]!.n).toBe(1);
      // On the standby too: a failover now would keep it.
      await until("the standby has the bet", async () => {
        const there = await query<{ n: number }>(
          standbyDb,
          "SELECT count(*)::int AS n FROM bets WHERE title = $1",
          [title],
        );
        return there[0]!.n === 1;
      });
      expect(server.running()).toBe(true);
    });

    it("answers a write that reaches a standby 503, never 500, and goes on once the address leads to the primary", async () => {
      const bob = await signUp(server.url);
      // Bob's session reached the standby (it replicates asynchronously).
      await sessionOnStandby(bob.user.id);
      proxy.switchTo(standby.port, { cut: true });
      for (let i = 0; i < 3; i++) {
        const keyed = await bob.client.request("POST", "/api/bets", {
          json: betInput("On a standby"),
          headers: { "Idempotency-Key": crypto.randomUUID() },
        });
        expectUnavailable(keyed);
        expectUnavailable(
          await bob.client.post("/api/bets", betInput("On a standby")),
        );
      }
      const page = await bob.client.request("POST", "/create-bet", {
        body: betForm(crypto.randomUUID(), "On a standby"),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "text/html",
        },
      });
      expect(page.status, page.text.slice(0, 300)).toBe(503);
      expect(page.headers.get("Retry-After")).toBe("5");

      // The address leads to the primary again (the connections to the
      // standby stay open: the pool drops each when it answers read-only).
      proxy.switchTo(primary.port);
      let answer = await bob.client.post("/api/bets", betInput("Back"));
      await until("writes go through again", async () => {
        if (answer.status === 201) return true;
        expect(answer.status, answer.text).toBe(503);
        answer = await bob.client.post("/api/bets", betInput("Back"));
        return answer.status === 201;
      });
      expect(server.output()).not.toMatch(/unhandled|uncaught/i);
    });

    it("answers 503 while there is no primary, and works again after the promotion without a restart", async () => {
      const carol = await signUp(server.url);
      const key = crypto.randomUUID();
      const before = await carol.client.request("POST", "/api/bets", {
        json: betInput(`Before ${key}`),
        headers: { "Idempotency-Key": key },
      });
      expect(before.status, before.text).toBe(201);

      primary.kill();
      expectUnavailable(await carol.client.post("/api/bets", betInput("None")));
      standby.promote();
      proxy.switchTo(standby.port, { cut: true });

      let answer = await carol.client.post("/api/bets", betInput("After"));
      await until("writes go to the promoted standby", async () => {
        if (answer.status === 201) return true;
        expect(answer.status, answer.text).toBe(503);
        answer = await carol.client.post("/api/bets", betInput("After"));
        return answer.status === 201;
      });
      // The session, the kept answer and the acknowledged bet carried over.
      const repeat = await carol.client.request("POST", "/api/bets", {
        json: betInput(`Before ${key}`),
        headers: { "Idempotency-Key": key },
      });
      expect(repeat.status, repeat.text).toBe(201);
      expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
      expect(repeat.data.id).toBe(before.data.id);
      const mine = await carol.client.get("/api/user/bets/created");
      expect(
        (mine.data as { title: string }[]).map((b) => b.title).sort(),
      ).toEqual(["After", `Before ${key}`]);
      expect(server.running()).toBe(true);
      expect(server.output()).not.toMatch(/unhandled|uncaught/i);
    });
  },
);
