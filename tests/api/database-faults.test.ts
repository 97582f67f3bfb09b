// PostgreSQL restarting under load (docs/product-rules.md#more-than-one-machine):
// while it is down a request gets 503 'Fairshake is briefly unavailable'
// with Retry-After (never a 500), /healthz says so, and once it is back the
// same server process answers normally again, without a restart. Its own
// cluster, which the test stops and starts; PostgreSQL half of the matrix only.
// On SQLite: a write that waited its whole budget for another process's
// lock is the same 503.
import Database from "better-sqlite3";
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  startCluster,
  type Cluster,
} from "../../scripts/lib/postgres-cluster.mjs";
import {
  Client,
  startServer,
  signUp,
  type TestServer,
} from "../support/server";
import { onPostgres } from "../support/test-database";

const UNAVAILABLE = "Fairshake is briefly unavailable. Please try again.";
const betInput = (title: string) => ({
  title,
  description: "The database goes away and comes back.",
  amount: 5,
  deadline: new Date(Date.now() + 86_400_000).toISOString(),
  visibility: "public",
});
const betForm = (key: string, title: string) =>
  new URLSearchParams({
    idempotencyKey: key,
    title,
    description: "The database goes away and comes back.",
    amount: "5",
    deadlineDate: new Date(Date.now() + 2 * 86_400_000)
      .toISOString()
      .slice(0, 10),
    visibility: "public",
  }).toString();

/**
 * One keyed write through each door: the /api with an Idempotency-Key, a
 * page form with its hidden key (without JavaScript), and the same form as
 * React Router's fetch sends it (`.data`).
 */
function keyedWriteSenders(client: Client, title: string) {
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  return [
    () =>
      client.request("POST", "/api/bets", {
        json: betInput(title),
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }),
    () =>
      client.request("POST", "/create-bet", {
        body: betForm(crypto.randomUUID(), title),
        headers: { ...form, Accept: "text/html" },
      }),
    () =>
      client.request("POST", "/create-bet.data", {
        body: betForm(crypto.randomUUID(), title),
        headers: { ...form, Accept: "*/*" },
      }),
  ];
}
const keyedWrites = (client: Client, title: string) =>
  keyedWriteSenders(client, title).map((send) => send());

/** A database outage's answer, whatever the door: 503, Retry-After, no stack. */
function expectUnavailable(
  answer: { status: number; headers: Headers; text: string; data: unknown },
  door: string,
) {
  expect(answer.status, `${door}: ${answer.text.slice(0, 300)}`).toBe(503);
  expect(answer.headers.get("Retry-After"), door).toBe("5");
  expect(answer.text, door).not.toMatch(/at .*\.js:\d+/);
  if (door.startsWith("/api"))
    expect(answer.data, door).toEqual({ error: UNAVAILABLE });
}

describe.runIf(onPostgres())(
  "PostgreSQL stopped and started under load",
  () => {
    let cluster: Cluster;
    let server: TestServer;
    beforeAll(async () => {
      cluster = await startCluster();
      const url = await createDatabase(cluster.adminUrl, "faults");
      server = await startServer({ DATABASE_URL: url });
    });
    afterAll(async () => {
      await server?.stop();
      cluster?.stop();
    });

    it("answers 503 with Retry-After while it is down, then normally again without a restart", async () => {
      const alice = await signUp(server.url);
      const write = () =>
        alice.client.post("/api/bets", {
          title: "Through a restart",
          description: "The database goes away and comes back.",
          amount: 5,
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
          visibility: "public",
        });
      const first = await write();
      expect(first.status).toBe(201);

      cluster.pause();
      const down = await Promise.all([
        write(),
        alice.client.get("/api/user/bets/created"),
        alice.client.get("/api/bets"),
      ]);
      for (const answer of down) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.data.error).toBe(
          "Fairshake is briefly unavailable. Please try again.",
        );
        expect(answer.headers.get("Retry-After")).toBe("5");
      }
      expect((await fetch(`${server.url}/healthz`)).status).toBe(503);
      // Keyed writes, through every door, answer the same, and so does a
      // load of keyed and unkeyed /api writes sent at once.
      const doors = ["/api/bets", "/create-bet", "/create-bet.data"];
      const keyed = await Promise.all(keyedWrites(alice.client, "Keyed"));
      keyed.forEach((answer, i) => expectUnavailable(answer, doors[i]!));
      const load = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          alice.client.request("POST", "/api/bets", {
            json: betInput(`Load ${i}`),
            headers:
              i % 2 === 0 ? { "Idempotency-Key": crypto.randomUUID() } : {},
          }),
        ),
      );
      for (const answer of load) expectUnavailable(answer, "/api/bets");
      // The pages too, a document and a client navigation's data request;
      // the share page as a visitor without a session opens it.
      const shared = `/share/${first.data.id}`;
      const visitor = new Client(server.url);
      for (const [client, path] of [
        [alice.client, "/"],
        [alice.client, "/my-bets"],
        [alice.client, "/my-bets.data"],
        [visitor, shared],
      ] as const) {
        const page = await client.request("GET", path, {
          headers: { Accept: "text/html" },
        });
        expect(page.status, `${path}: ${page.text.slice(0, 300)}`).toBe(503);
        expect(page.headers.get("Retry-After")).toBe("5");
        expect(page.text).not.toMatch(/at .*\.js:\d+/);
      }

      cluster.resume();
      const started = Date.now();
      let answer = await write();
      while (answer.status !== 201 && Date.now() - started < 30_000) {
        expect(answer.status, answer.text).toBe(503);
        await new Promise((r) => setTimeout(r, 200));
        answer = await write();
      }
      expect(answer.status, answer.text).toBe(201);
      console.info(
        `answering again ${Date.now() - started} ms after PostgreSQL was back`,
      );
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const mine = await alice.client.get("/api/user/bets/created");
      expect(mine.data).toHaveLength(2);
      expect(server.running()).toBe(true);
    });
  },
);

// A keyed write whose work waits on a lock (another transaction holds the
// table) longer than a third of the idempotency lease, with a pool of one
// connection: renewing the lease cannot get a connection. The request is
// answered (503, or success once the lock goes) and the process stays up.
describe.runIf(onPostgres())(
  "a keyed write held behind a table lock past its lease",
  () => {
    let cluster: Cluster;
    let server: TestServer;
    let url: string;
    beforeAll(async () => {
      cluster = await startCluster();
      url = await createDatabase(cluster.adminUrl, "held");
      server = await startServer({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: "1",
        IDEMPOTENCY_LEASE_MS: "600",
        SQLITE_LOCK_WAIT_MS: "1500",
      });
    });
    afterAll(async () => {
      await server?.stop();
      cluster?.stop();
    });

    it("answers 503 or succeeds, and the process stays up", async () => {
      const alice = await signUp(server.url);
      const locker = new pg.Client({ connectionString: url });
      await locker.connect();
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE bets IN ACCESS EXCLUSIVE MODE");
      let answers: Awaited<ReturnType<typeof keyedWrites>[number]>[];
      try {
        const [apiWrite, ...pageWrites] = keyedWriteSenders(
          alice.client,
          "Held",
        ) as [
          () => ReturnType<Client["request"]>,
          ...(() => ReturnType<Client["request"]>)[],
        ];
        // The /api write first, until its insert waits on the lock holding
        // the pool's one connection; then the pages queue for it.
        const first = apiWrite();
        const waitingSince = Date.now();
        while (
          Number(
            (
              await locker.query(
                "SELECT count(*) AS n FROM pg_locks WHERE NOT granted",
              )
            ).rows[0].n,
          ) === 0 &&
          Date.now() - waitingSince < 20_000
        )
          await new Promise((r) => setTimeout(r, 50));
        const rest = pageWrites.map((send) => send());
        // Held past several renewals (every 200 ms) and the pool's wait (1.5 s).
        await new Promise((r) => setTimeout(r, 4_000));
        await locker.query("ROLLBACK");
        answers = await Promise.all([first, ...rest]);
      } finally {
        await locker.end().catch(() => {});
      }
      const doors = ["/api/bets", "/create-bet", "/create-bet.data"];
      answers.forEach((answer, i) => {
        if (answer.status === 503) expectUnavailable(answer, doors[i]!);
        else expect(answer.status, doors[i]).toBeLessThan(400);
      });
      expect(server.running(), server.output()).toBe(true);
      expect(server.output()).not.toMatch(/unhandled|uncaught/i);
      // And it answers normally afterwards.
      const after = await alice.client.post("/api/bets", betInput("After"));
      expect(after.status, after.text).toBe(201);
    });
  },
);

describe.runIf(!onPostgres())(
  "SQLite's write lock held past the wait budget",
  () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({ SQLITE_LOCK_WAIT_MS: "300" });
    });
    afterAll(() => server?.stop());

    it("a write that cannot get its turn is 503 with Retry-After, then goes through once the lock is free", async () => {
      const alice = await signUp(server.url);
      const write = () =>
        alice.client.post("/api/bets", {
          title: "Behind a held lock",
          description: "Another process holds the write lock.",
          amount: 5,
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
          visibility: "public",
        });
      // Another process (this one) holds the database's write lock.
      const other = new Database(server.dbPath);
      other.exec("BEGIN IMMEDIATE");
      try {
        const held = await write();
        expect(held.status, held.text).toBe(503);
        expect(held.data.error).toBe(
          "Fairshake is briefly unavailable. Please try again.",
        );
        expect(held.headers.get("Retry-After")).toBe("5");
        const doors = ["/api/bets", "/create-bet", "/create-bet.data"];
        const keyed = await Promise.all(keyedWrites(alice.client, "Keyed"));
        keyed.forEach((answer, i) => expectUnavailable(answer, doors[i]!));
      } finally {
        other.exec("ROLLBACK");
        other.close();
      }
      expect((await write()).status).toBe(201);
      const mine = await alice.client.get("/api/user/bets/created");
      expect(mine.data).toHaveLength(1);
    });
  },
);
