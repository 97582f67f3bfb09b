// PostgreSQL restarting under load (docs/product-rules.md#more-than-one-machine):
// while it is down a request gets 503 'Fairshake is briefly unavailable'
// with Retry-After (never a 500), /healthz says so, and once it is back the
// same server process answers normally again, without a restart. Its own
// cluster, which the test stops and starts; PostgreSQL half of the matrix only.
// On SQLite: a write that waited its whole budget for another process's
// lock is the same 503.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  startCluster,
  type Cluster,
} from "../../scripts/lib/postgres-cluster.mjs";
import { startServer, signUp, type TestServer } from "../support/server";
import { onPostgres } from "../support/test-database";

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
      expect((await write()).status).toBe(201);

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
      // The pages too, a document and a client navigation's data request.
      for (const path of ["/", "/my-bets", "/my-bets.data"]) {
        const page = await alice.client.request("GET", path, {
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
