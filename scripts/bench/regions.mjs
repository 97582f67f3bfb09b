// The bench's "regions" section (docs/decisions/1050-regions-read-nearby-write-in-one.md):
// a PostgreSQL primary and a streaming standby on this machine, a Fairshake
// in the primary region (ams, on the primary) and one outside it (syd, its
// reads on the standby), both on the demo seed. It measures
//
// - CPU per request of a page read in syd beside the same page in ams
//   (autocannon, paired turns with the order swapped each turn, as the
//   throughput section does): what the region middleware and the replica's
//   pool add to a read;
// - the wait for the replica when a person's own write is fresh: a bet
//   created in ams, its `fs_lsn` cookie carried to a read of that bet in syd.
//   The server does not expose how long it waited, so the wait is the read's
//   time less the same read's time without `fs_lsn` just after (the replica
//   has replayed it by then). A read the replica did not reach in time is
//   answered 409 `fly-replay: region=ams` and counted as replayed.
//
// The servers are started by the caller's `startServer` (so the bench stops
// them on every way out); the clusters are stopped here.
import autocannon from "autocannon";
import {
  createDatabase,
  databaseUrlOn,
  startCluster,
  startStandby,
} from "../lib/postgres-cluster.mjs";

const pct = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function signIn(base, username) {
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password: "password123" }),
  });
  if (res.status !== 200)
    throw new Error(`signing in as ${username} answered ${res.status}`);
  // Signing in is a write: its answer sets fs_lsn too. The session alone is
  // kept, so each read below carries only the fs_lsn it is given (the
  // middleware reads the first fs_lsn in a Cookie header).
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.startsWith("fs_lsn="))
    .join("; ");
}

/** The cookie `name=value` among an answer's Set-Cookie lines, or null. */
function setCookie(res, name) {
  return (
    res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .find((c) => c.startsWith(`${name}=`)) ?? null
  );
}

/** Waits until the standby has replayed what the primary has written so far. */
async function caughtUp(primaryUrl, standbyUrl) {
  const { default: pg } = await import("pg");
  const primary = new pg.Client({ connectionString: primaryUrl });
  const standby = new pg.Client({ connectionString: standbyUrl });
  await Promise.all([primary.connect(), standby.connect()]);
  try {
    const { lsn } = (
      await primary.query("SELECT pg_current_wal_lsn()::text AS lsn")
    ).rows[0];
    for (let i = 0; i < 100; i++) {
      const { ok } = (
        await standby.query(
          "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok",
          [lsn],
        )
      ).rows[0];
      if (ok) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the standby did not catch up within 5 s");
  } finally {
    await Promise.all([primary.end(), standby.end()]);
  }
}

/** A timed request: its status, fly-replay header and milliseconds to the last byte. */
async function timed(url, init) {
  const t0 = performance.now();
  const res = await fetch(url, { redirect: "manual", ...init });
  await res.arrayBuffer();
  return {
    ms: performance.now() - t0,
    status: res.status,
    replay: res.headers.get("fly-replay"),
    res,
  };
}

export async function measureRegions({
  startServer,
  stopServer,
  cpuMs,
  median,
  port,
  turns,
  duration,
  writes,
  acceptEncoding,
}) {
  const primary = await startCluster();
  let standby;
  try {
    const url = await createDatabase(primary.adminUrl, "regions");
    // The throwaway cluster commits asynchronously (synchronous_commit=off,
    // for the tests' speed): its WAL reaches the standby only when the WAL
    // writer flushes, every 200 ms, which is not how production commits. The
    // bench's database commits as production does; fsync stays off.
    {
      const { default: pg } = await import("pg");
      const admin = new pg.Client({ connectionString: primary.adminUrl });
      await admin.connect();
      await admin.query('ALTER DATABASE "regions" SET synchronous_commit = on');
      await admin.end();
    }
    standby = await startStandby(primary);
    const replicaUrl = databaseUrlOn(standby, "regions");
    const amsBase = `http://localhost:${port}`;
    const sydBase = `http://localhost:${port + 1}`;
    const common = {
      DEMO_MODE: "1",
      RATE_LIMITS: "off",
      METRICS_PORT: "off",
      // One secret: a session made in one region is good in the other.
      SESSION_SECRET: "bench-regions",
      DATABASE_URL: url,
      PRIMARY_REGION: "ams",
    };
    // ams first: it migrates and seeds, which syd (read-only) must not.
    const ams = await startServer("ams", {
      ...common,
      FLY_REGION: "ams",
      PORT: String(port),
    });
    const syd = await startServer("syd", {
      ...common,
      FLY_REGION: "syd",
      DATABASE_REPLICA_URL: replicaUrl,
      PRIMARY_INTERNAL_URL: amsBase,
      PORT: String(port + 1),
    });
    try {
      const alice = await signIn(amsBase, "alice");
      // A returning visitor: the stylesheet cookie, so documents link it.
      const css = setCookie(
        await fetch(`${amsBase}/`, {
          headers: { Cookie: alice },
          redirect: "manual",
        }),
        "fs_css",
      );
      const returning = css ? `${alice}; ${css}` : alice;
      const bet =
        (await (await fetch(`${amsBase}/api/bets`)).json())[0]?.id ?? 1;
      await caughtUp(url, replicaUrl);

      const regions = [
        { name: "ams", pid: ams.pid, base: amsBase },
        { name: "syd", pid: syd.pid, base: sydBase },
      ];
      const load = async (r, p, seconds) => {
        const cpu0 = cpuMs(r.pid);
        const result = await autocannon({
          url: r.base + p,
          connections: 16,
          duration: seconds,
          headers: { "Accept-Encoding": acceptEncoding, Cookie: returning },
        });
        return {
          rps: result.requests.average,
          p99: result.latency.p99,
          cpuPerReq: (cpuMs(r.pid) - cpu0) / Math.max(1, result.requests.total),
          bad: result.non2xx + result.errors,
        };
      };
      const pages = [];
      for (const [label, p] of [
        ["/my-bets", "/my-bets"],
        ["/bet/{id}", `/bet/${bet}`],
      ]) {
        for (const r of regions) await load(r, p, 3); // warm-up
        const pairs = [];
        for (let turn = 0; turn < turns; turn++) {
          const order = turn % 2 ? [...regions].reverse() : regions;
          const pair = {};
          for (const r of order) pair[r.name] = await load(r, p, duration);
          pairs.push(pair);
        }
        const of = (name, key) => median(pairs.map((t) => t[name][key]));
        pages.push({
          label,
          ams: {
            cpu: of("ams", "cpuPerReq"),
            rps: of("ams", "rps"),
            p99: of("ams", "p99"),
          },
          syd: {
            cpu: of("syd", "cpuPerReq"),
            rps: of("syd", "rps"),
            p99: of("syd", "p99"),
          },
          cpuX: median(pairs.map((t) => t.syd.cpuPerReq / t.ams.cpuPerReq)),
          perTurn: pairs.map((t) => t.syd.cpuPerReq / t.ams.cpuPerReq),
          bad: pairs.reduce((a, t) => a + t.ams.bad + t.syd.bad, 0),
        });
      }

      // Own writes: bob creates a bet in ams and reads it at once in syd.
      const bob = await signIn(amsBase, "bob");
      const waits = [];
      const withLsn = [];
      const without = [];
      let replayed = 0;
      let failed = 0;
      let firstFailure = null;
      for (let i = 0; i < writes; i++) {
        const created = await fetch(`${amsBase}/api/bets`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "Idempotency-Key": crypto.randomUUID(),
            Cookie: bob,
          },
          body: JSON.stringify({
            title: `Bench bet ${i + 1} read in Sydney`,
            description: "Created in ams, read in syd at once.",
            amount: 5,
            deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
            visibility: "public",
          }),
        });
        const lsn = setCookie(created, "fs_lsn");
        const body = await created.text();
        const id = created.status === 201 ? JSON.parse(body).id : null;
        if (!lsn || !id) {
          failed += 1;
          firstFailure ??= `POST /api/bets ${created.status}${lsn ? "" : " without fs_lsn"}: ${body.slice(0, 120)}`;
          continue;
        }
        const page = `${sydBase}/bet/${id}`;
        const fresh = await timed(page, {
          headers: { Cookie: `${bob}; ${lsn}` },
        });
        if (fresh.status === 409 && /region=ams/.test(fresh.replay ?? "")) {
          replayed += 1;
          continue;
        }
        if (fresh.status !== 200) {
          failed += 1;
          firstFailure ??= `GET /bet/{id} in syd ${fresh.status}`;
          continue;
        }
        const plain = await timed(page, { headers: { Cookie: bob } });
        withLsn.push(fresh.ms);
        without.push(plain.ms);
        waits.push(Math.max(0, fresh.ms - plain.ms));
      }
      const sorted = (xs) => [...xs].sort((a, b) => a - b);
      return {
        pages,
        wait: {
          writes,
          read: waits.length,
          replayed,
          failed,
          firstFailure,
          p50: pct(sorted(waits), 50),
          p99: pct(sorted(waits), 99),
          withP50: pct(sorted(withLsn), 50),
          withP99: pct(sorted(withLsn), 99),
          withoutP50: pct(sorted(without), 50),
          withoutP99: pct(sorted(without), 99),
        },
      };
    } finally {
      await Promise.all([stopServer(syd), stopServer(ams)]);
    }
  } finally {
    standby?.stop();
    primary.stop();
  }
}
