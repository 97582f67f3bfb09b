// Around the world (docs/operations.md#regions, rulings 51–55 of the design):
// a PostgreSQL primary and a streaming standby, an app server in the
// primary region (ams) and one outside it (syd) reading from the standby,
// and a stand-in for Fly's proxy that honours `fly-replay`. A person near
// syd goes through the proxy's syd door. PostgreSQL half of the matrix only.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDatabase,
  databaseUrlOn,
  freePort,
  startCluster,
  startStandby,
  type Cluster,
} from "../../scripts/lib/postgres-cluster.mjs";
import {
  startFlyReplayProxy,
  FLY_REPLAY_BODY_LIMIT,
  type FlyReplayProxy,
} from "../support/fly-replay-proxy";
import { openEventStream, type EventStream } from "../support/event-stream";
import { Client, signUp, uniqueName, type TestServer } from "../support/server";
import { startServer } from "../support/server";
import { onPostgres } from "../support/test-database";
import { payOverHttp, settledBetOverHttp } from "./settle-helpers";

const betInput = (title: string) => ({
  title,
  description: "Somebody on the other side of the world wins.",
  amount: 5,
  deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  visibility: "public",
});

/** The same person (their cookies), at another address. */
function samePersonAt(client: Client, baseUrl: string): Client {
  type Jar = { cookies: Map<string, string> };
  const other = new Client(baseUrl);
  (other as unknown as Jar).cookies = new Map(
    (client as unknown as Jar).cookies,
  );
  return other;
}

/**
 * One request with the path exactly as given (no client normalises it) and
 * the body declared, or sent in chunks with no length.
 */
function rawRequest(
  base: string,
  method: string,
  path: string,
  body: Buffer,
  headers: Record<string, string>,
  { chunked = false } = {},
): Promise<{
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        method,
        path,
        headers: chunked
          ? { ...headers, "Transfer-Encoding": "chunked" }
          : { ...headers, "Content-Length": String(body.length) },
      },
      (answer) => {
        let text = "";
        answer.setEncoding("utf8");
        answer.on("data", (chunk: string) => (text += chunk));
        answer.on("end", () =>
          resolve({
            status: answer.statusCode ?? 0,
            headers: answer.headers,
            body: text,
          }),
        );
      },
    );
    request.on("error", reject);
    if (chunked) {
      request.write(body.subarray(0, 5));
      request.end(body.subarray(5));
    } else request.end(body);
  });
}

/** Polls `check` until it holds, for at most `ms`; its last answer. */
async function within<T>(
  ms: number,
  check: () => Promise<T>,
  ok: (v: T) => boolean,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(onPostgres())(
  "regions: reads nearby, writes in the primary",
  () => {
    let primary: Cluster;
    let standby: Cluster;
    let ams: TestServer;
    let syd: TestServer;
    let proxy: FlyReplayProxy;
    let primarySql: pg.Client;
    let standbySql: pg.Client;
    const streams: EventStream[] = [];

    beforeAll(async () => {
      primary = await startCluster();
      const url = await createDatabase(primary.adminUrl, "regions");
      standby = await startStandby(primary);
      const amsPort = await freePort();
      const common = {
        DATABASE_URL: url,
        PRIMARY_REGION: "ams",
        LIVE_HEARTBEAT_MS: "500",
      };
      [ams, syd] = await Promise.all([
        startServer({ ...common, FLY_REGION: "ams", PORT: String(amsPort) }),
        startServer({
          ...common,
          FLY_REGION: "syd",
          DATABASE_REPLICA_URL: databaseUrlOn(standby, "regions"),
          // Short, so a paused replica is "behind" within the tests' time.
          REPLICA_MAX_LAG_MS: "6000",
          // Fly's private network in production: {region}.{app}.internal.
          PRIMARY_INTERNAL_URL: `http://127.0.0.1:${amsPort}`,
        }),
      ]);
      proxy = await startFlyReplayProxy({ ams: ams.url, syd: syd.url }, "syd");
      primarySql = new pg.Client({ connectionString: url });
      standbySql = new pg.Client({
        connectionString: databaseUrlOn(standby, "regions"),
      });
      // The standby is stopped in a test: its connection's end is expected.
      standbySql.on("error", () => undefined);
      await Promise.all([primarySql.connect(), standbySql.connect()]);
    }, 120_000);

    afterAll(async () => {
      for (const s of streams) s.close();
      await primarySql?.end().catch(() => undefined);
      await standbySql?.end().catch(() => undefined);
      await proxy?.close();
      await Promise.all([ams?.stop(), syd?.stop()]);
      standby?.stop();
      primary?.stop();
    });

    const count = async (table: string) =>
      Number(
        (await primarySql.query(`SELECT count(*) AS n FROM ${table}`)).rows[0]
          .n,
      );

    /** Waits until the standby has replayed everything the primary has written. */
    // Up to the primary's insert position, the one `fs_lsn` carries: the
    // written position can lag it while the last commit is unflushed
    // (synchronous_commit off), and a pause then caught the replica short.
    async function replicaCaughtUp() {
      const { lsn } = (
        await primarySql.query("SELECT pg_current_wal_insert_lsn() AS lsn")
      ).rows[0];
      await within(
        5_000,
        async () =>
          (
            await onStandby(
              "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok",
              [lsn],
            )
          ).rows[0].ok as boolean,
        (ok) => ok,
      );
    }

    it("answers a write outside the primary region with fly-replay, before any work", async () => {
      const { client: alice } = await signUp(ams.url);
      await replicaCaughtUp();
      const users = await count("users");
      const keys = await count("idempotency_keys");
      const atSyd = new Client(syd.url);
      const name = uniqueName();
      const register = await atSyd.post("/api/register", {
        username: name,
        email: `${name}@example.com`,
        password: "secret123",
      });
      const signedIn = samePersonAt(alice, syd.url);
      const answers = [
        register,
        await signedIn.request("POST", "/api/bets", {
          json: betInput("Keyed, outside"),
          headers: { "Idempotency-Key": crypto.randomUUID() },
        }),
        await signedIn.request("POST", "/create-bet", {
          body: "title=x",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }),
        // A read that writes: opening a private bet by its code.
        await signedIn.get("/join/ABCDEF"),
        await signedIn.get("/api/bets/code/ABCDEF"),
        // In any case or spelling that routes there, as a visitor too.
        await signedIn.get("/SHARE/1?code=ABCDEF"),
        await new Client(syd.url).get("/Share/1/?code=ABCDEF"),
        await signedIn.get("/JOIN/ABCDEF"),
        await signedIn.get("/API/bets/code/ABCDEF"),
      ];
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(409);
        expect(answer.headers.get("fly-replay")).toBe("region=ams");
        expect(answer.text).toBe("");
      }
      expect(await count("users")).toBe(users);
      expect(await count("idempotency_keys")).toBe(keys);
      // A read is answered there, from the replica.
      expect((await signedIn.get("/api/bets")).status).toBe(200);
    });

    it("runs a whole bet from the outside region through the proxy, keyed writes kept", async () => {
      const { betId, winner, loser } = await settledBetOverHttp(proxy.url, 5);
      await payOverHttp(loser.client, betId);
      // The payer reads their own payment, wherever the read is answered.
      const seen = await loser.client.get(`/api/settlements/${betId}`);
      expect(seen.status, seen.text).toBe(200);
      expect(seen.data.paymentStatus).toBe("completed");
      // A keyed write replayed in the primary is still keyed: its repeat,
      // through the other region's door, gets the kept answer.
      const key = crypto.randomUUID();
      const input = betInput("Kept across regions");
      const send = (client: Client) =>
        client.request("POST", "/api/bets", {
          json: input,
          headers: { "Idempotency-Key": key },
        });
      const first = await send(winner.client);
      expect(first.status, first.text).toBe(201);
      const again = await send(samePersonAt(winner.client, ams.url));
      expect(again.status).toBe(201);
      expect(again.data.id).toBe(first.data.id);
    });

    it("shows a person their own write at once while the replica lags; others see it when it catches up", async () => {
      const alice = await signUp(proxy.url);
      const bob = await signUp(proxy.url);
      await replicaCaughtUp();
      const lagging = await openEventStream(alice.client);
      streams.push(lagging);
      expect(lagging.headers.get("x-test-region")).toBe("syd");
      await standbySql.query("SELECT pg_wal_replay_pause()");
      try {
        const created = await alice.client.post(
          "/api/bets",
          betInput("While it lags"),
        );
        expect(created.status, created.text).toBe(201);
        expect(created.headers.get("set-cookie")).toMatch(
          /fs_lsn=[0-9A-F]+\/[0-9A-F]+/i,
        );
        const betId = created.data.id as number;
        // Alice's own read: not stale, answered by the primary region.
        const own = await alice.client.get(`/api/bets/${betId}`);
        expect(own.status, own.text).toBe(200);
        expect(own.headers.get("x-test-region")).toBe("ams");
        const mine = await alice.client.get("/api/user/bets/created");
        expect(mine.data.map((b: { id: number }) => b.id)).toContain(betId);
        // Bob's read comes from the replica, which has not replayed it yet.
        const before = await bob.client.get(`/api/bets/${betId}`);
        expect(before.headers.get("x-test-region")).toBe("syd");
        expect(before.status).toBe(404);
        // Bob joins (a write, replayed): an event for Alice, not yet replayed.
        const joined = await bob.client.post(`/api/bets/${betId}/join`, {});
        expect(joined.status, joined.text).toBe(200);
        const lastSeen = lagging.events.at(-1)?.id;
        await standbySql.query("SELECT pg_wal_replay_resume()");
        // Within 3 s of resuming: Bob's read there shows the bet, and Alice's
        // stream held in syd hears the join, nothing lost.
        const after = await within(
          3_000,
          () => bob.client.get(`/api/bets/${betId}`),
          (r) => r.status === 200,
        );
        expect(after.status).toBe(200);
        expect(after.headers.get("x-test-region")).toBe("syd");
        await lagging.waitFor(
          (e) => e.data.type === "bet" && e.data.betId === betId,
          3_000,
        );
        // A reconnect with Last-Event-ID in syd catches up from the replica.
        const again = await openEventStream(alice.client, {
          lastEventId: lastSeen ?? "0",
        });
        streams.push(again);
        expect(again.headers.get("x-test-region")).toBe("syd");
        await again.waitFor(
          (e) => e.data.type === "bet" && e.data.betId === betId,
          3_000,
        );
      } finally {
        await standbySql
          .query("SELECT pg_wal_replay_resume()")
          .catch(() => undefined);
      }
    });

    it("takes a 2 MB avatar from the outside region, though Fly replays no body over 1 MB", async () => {
      const { client, user } = await signUp(proxy.url);
      // Noise does not compress: a PNG of about 1.9 MB.
      const side = 800;
      const noise = crypto.randomBytes(side * side * 3);
      const png = await sharp(noise, {
        raw: { width: side, height: side, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(png.length).toBeGreaterThan(FLY_REPLAY_BODY_LIMIT);
      expect(png.length).toBeLessThan(2 * 1024 * 1024 - 1024);
      const uploadsAt = (server: TestServer) =>
        server
          .output()
          .split("\n")
          .filter((line) =>
            line.includes('"method":"POST","route":"/profile/edit"'),
          ).length;
      const amsUploads = uploadsAt(ams);
      const form = new FormData();
      form.append(
        "avatar",
        new Blob([new Uint8Array(png)], { type: "image/png" }),
        "me.png",
      );
      const res = await client.request("POST", "/profile/edit", {
        body: form,
        headers: { Accept: "text/html" },
      });
      expect(res.status, res.text.slice(0, 300)).toBe(302);
      // Made in the primary region: syd's machine sent it on itself.
      // (request lines are written in batches: waited for)
      const made = await within(
        3_000,
        async () => uploadsAt(ams),
        (n) => n > amsUploads,
      );
      expect(made).toBe(amsUploads + 1);
      const me = await within(
        3_000,
        () => client.get("/api/user"),
        (r) => typeof r.data?.avatarUrl === "string",
      );
      expect(me.data.avatarUrl).toMatch(
        new RegExp(`^/avatars/${user.id}\\?v=`),
      );
    });

    it("takes a 3 MB photo on a message from the outside region, as it takes an avatar", async () => {
      const alice = await signUp(proxy.url);
      const bob = await signUp(proxy.url);
      const bet = await alice.client.post("/api/bets", {
        title: "Photo finish",
        description: "The first across the line wins.",
        amount: 10,
        deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        visibility: "public",
      });
      expect(bet.status, bet.text).toBe(201);
      expect(
        (await bob.client.post(`/api/bets/${bet.data.id}/join`, {})).status,
      ).toBe(200);
      // Noise does not compress: a PNG of about 3 MB.
      const side = 1000;
      const png = await sharp(crypto.randomBytes(side * side * 3), {
        raw: { width: side, height: side, channels: 3 },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      expect(png.length).toBeGreaterThan(2.5 * 1024 * 1024);
      const postsAt = (server: TestServer) =>
        server
          .output()
          .split("\n")
          .filter((line) =>
            line.includes('"method":"POST","route":"/api/bets/:id/messages"'),
          ).length;
      const amsPosts = postsAt(ams);
      const form = new FormData();
      form.set("body", "Here is the finish line");
      form.append(
        "photo",
        new Blob([new Uint8Array(png)], { type: "image/png" }),
        "finish.png",
      );
      const res = await alice.client.request(
        "POST",
        `/api/bets/${bet.data.id}/messages`,
        { body: form },
      );
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      expect(res.data.photos).toHaveLength(1);
      // Made in the primary region: syd's machine sent it on itself.
      const made = await within(
        3_000,
        async () => postsAt(ams),
        (n) => n > amsPosts,
      );
      expect(made).toBe(amsPosts + 1);
    });

    it("forwards only a body over the replay limit, and only to the primary's own origin", async () => {
      // A host on loopback that must never hear from syd.
      let canaryHeard = 0;
      const canary = http.createServer((req, res) => {
        canaryHeard++;
        req.resume();
        res.end("canary");
      });
      await new Promise<void>((resolve) =>
        canary.listen(0, "127.0.0.1", resolve),
      );
      const host = `127.0.0.1:${(canary.address() as AddressInfo).port}`;
      const large = Buffer.alloc(FLY_REPLAY_BODY_LIMIT + 1_000, 0x61);
      try {
        for (const path of [
          `//${host}/x`,
          `/.//${host}/x`,
          `/a/..//${host}/x`,
          `/\\${host}/x`,
          `/%2F%2F${host}/x`,
          `/.%2F/${host}/x`,
        ]) {
          // Chunked and small (the probe's way), and declared and large.
          for (const [body, chunked] of [
            [Buffer.from("title=x"), true],
            [large, false],
          ] as const) {
            const answer = await rawRequest(
              syd.url,
              "POST",
              path,
              body,
              { "Content-Type": "application/x-www-form-urlencoded" },
              { chunked },
            );
            expect(answer.body, path).not.toBe("canary");
          }
        }
        expect(canaryHeard).toBe(0);
      } finally {
        canary.closeAllConnections();
        await new Promise((resolve) => canary.close(resolve));
      }
      // A small body sent in chunks (no Content-Length) is the proxy's to
      // replay: 409 and fly-replay, nothing sent on by this machine.
      const amsPosts = () =>
        ams
          .output()
          .split("\n")
          .filter((l) => l.includes('"method":"POST"')).length;
      const before = amsPosts();
      const small = await rawRequest(
        syd.url,
        "POST",
        "/create-bet",
        Buffer.from("title=chunked"),
        { "Content-Type": "application/x-www-form-urlencoded" },
        { chunked: true },
      );
      expect(small.status, small.body).toBe(409);
      expect(small.headers["fly-replay"]).toBe("region=ams");
      expect(small.body).toBe("");
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(amsPosts()).toBe(before);
    });

    it("writes nothing from a read there: no session touch, no background work", async () => {
      const { client, user } = await signUp(ams.url);
      // A session last seen an hour ago: in the primary region a read
      // would touch it; outside it, the read stays a read.
      const hourAgo = Date.now() - 3_600_000;
      await primarySql.query(
        "UPDATE sessions SET last_seen_at = $1 WHERE user_id = $2",
        [hourAgo, user.id],
      );
      await replicaCaughtUp();
      const read = await samePersonAt(client, syd.url).get("/api/user");
      expect(read.status, read.text).toBe(200);
      const seen = await primarySql.query(
        "SELECT last_seen_at AS at FROM sessions WHERE user_id = $1",
        [user.id],
      );
      expect(Number(seen.rows[0].at)).toBe(hourAgo);
      // The sweep and the outbox run in ams only: syd never tried a write.
      expect(syd.output()).not.toMatch(
        /sweep: .* failed|outbox delivery failed/,
      );
    });

    it("replays reads in the primary region when the replica is lost; /healthz there says so", async () => {
      const { client } = await signUp(proxy.url);
      standby.pause();
      try {
        for (const path of ["/api/bets", "/api/user", "/my-bets"]) {
          const res = await client.get(path, { Accept: "text/html" });
          expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
          expect(res.headers.get("x-test-region")).toBe("ams");
        }
        const health = await fetch(`${syd.url}/healthz`);
        expect(health.status).toBe(200);
        expect(await health.text()).toBe("replica unavailable");
        expect(await (await fetch(`${ams.url}/healthz`)).text()).toBe("ok");
      } finally {
        standby.resume();
      }
      // Back: the region reads from its replica again, by itself.
      const back = await within(
        6_000,
        () => client.get("/api/bets"),
        (r) => r.headers.get("x-test-region") === "syd",
      );
      expect(back.status).toBe(200);
      expect(back.headers.get("x-test-region")).toBe("syd");
      expect(await (await fetch(`${syd.url}/healthz`)).text()).toBe("ok");
    });

    /** One statement on the standby, on a connection of its own (an earlier test stopped it once). */
    async function onStandby(statement: string, values: unknown[] = []) {
      const client = new pg.Client({
        connectionString: databaseUrlOn(standby, "regions"),
      });
      client.on("error", () => undefined);
      await client.connect();
      try {
        return await client.query(statement, values);
      } finally {
        await client.end().catch(() => undefined);
      }
    }

    it("ends a session in every region: a replica too far behind is not believed", async () => {
      const alice = await signUp(proxy.url);
      await replicaCaughtUp();
      // The thief has the session cookie only (no fs_lsn of Alice's writes).
      const thief = samePersonAt(alice.client, proxy.url);
      type Jar = { cookies: Map<string, string> };
      (thief as unknown as Jar).cookies.delete("fs_lsn");
      const before = await thief.get("/api/user");
      expect(before.status).toBe(200);
      expect(before.headers.get("x-test-region")).toBe("syd");
      const stream = await openEventStream(thief);
      streams.push(stream);
      expect(stream.headers.get("x-test-region")).toBe("syd");
      await onStandby("SELECT pg_wal_replay_pause()");
      try {
        // Alice signs out; the replica in syd never replays it.
        const out = await samePersonAt(alice.client, ams.url).post(
          "/api/logout",
          {},
        );
        expect(out.status, out.text).toBeLessThan(300);
        // Within the bound (6 s here) the stale replica stops answering:
        // the thief's read is answered in ams, where the session is gone.
        const after = await within(
          15_000,
          () => thief.get("/api/user"),
          (r) => r.status === 401,
        );
        expect(after.status).toBe(401);
        expect(after.headers.get("x-test-region")).toBe("ams");
        await stream.ended;
        expect(await (await fetch(`${syd.url}/healthz`)).text()).toBe(
          "replica behind",
        );
      } finally {
        await onStandby("SELECT pg_wal_replay_resume()").catch(() => undefined);
      }
      const back = await within(
        6_000,
        async () => (await fetch(`${syd.url}/healthz`)).text(),
        (text) => text === "ok",
      );
      expect(back).toBe("ok");
      const still = await thief.get("/api/user");
      expect(still.status).toBe(401);
      expect(still.headers.get("x-test-region")).toBe("syd");
    });

    it("ignores an fs_lsn ahead of the primary's own position", async () => {
      const { client } = await signUp(proxy.url);
      await replicaCaughtUp();
      type Jar = { cookies: Map<string, string> };
      (client as unknown as Jar).cookies.set("fs_lsn", "FFFFFF/0");
      const read = await client.get("/api/bets");
      expect(read.status).toBe(200);
      // Read nearby, not waited for and then replayed in ams.
      expect(read.headers.get("x-test-region")).toBe("syd");
    });

    // Last: the standby is promoted, and stays the primary of nothing.
    it("notices a replica that was promoted, says so, and reads in the primary region", async () => {
      const { client } = await signUp(proxy.url);
      await replicaCaughtUp();
      await onStandby("SELECT pg_promote(true, 10)");
      const health = await within(
        6_000,
        async () => (await fetch(`${syd.url}/healthz`)).text(),
        (text) => text === "replica not in recovery",
      );
      expect(health).toBe("replica not in recovery");
      // A write after the promotion never reaches that node: another
      // person's read of it is answered in the primary region, not from it.
      const created = await client.post("/api/bets", betInput("After"));
      expect(created.status, created.text).toBe(201);
      const bob = await signUp(proxy.url);
      type Jar = { cookies: Map<string, string> };
      (bob.client as unknown as Jar).cookies.delete("fs_lsn");
      const other = await bob.client.get(`/api/bets/${created.data.id}`);
      expect(other.status, other.text).toBe(200);
      expect(other.headers.get("x-test-region")).toBe("ams");
    });
  },
);
