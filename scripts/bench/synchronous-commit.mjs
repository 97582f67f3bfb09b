// The bench's "commit" section (docs/decisions/1065-acknowledged-means-kept.md):
// what a synchronous standby costs a join and a payment, beside the same
// requests with the standby asynchronous, in one run.
//
// A PostgreSQL primary and a streaming standby whose replication connection
// crosses the drill's relay (scripts/lib/tcp-relay.mjs): first on loopback
// (0 ms), then with each direction held half a real link's round trip (20 ms
// by default). The database commits `local`, as operators set it, so only
// the app's money and membership transactions wait for a standby. The
// standby is made synchronous (`synchronous_standby_names = 'ANY 1 (…)'`,
// reloaded) and asynchronous again (`''`) turn by turn, the order swapped
// every turn, against one app server on the demo seed.
//
// Measured one request at a time (so the latency is the request's own, not a
// queue's), each write under an Idempotency-Key as the app's own clients
// send them: a join, a payment (its three requests: the payment intent, the
// demo provider's card, the recorded payment) and, as a control, a write
// that is not money (POST /api/activity/read), which must cost the same in
// both modes. Latency p50/p99 and the server's CPU per request (its process
// CPU over a block of requests ÷ the requests; the server's CPU while idle,
// measured before, is printed beside it).
//
// The server is started by the caller's `startServer` (so the bench stops it
// on every way out); the clusters and the relay are stopped here, on an
// error or a signal too.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  createDatabase,
  startCluster,
  startStandby,
} from "../lib/postgres-cluster.mjs";
import { startRelay } from "../lib/tcp-relay.mjs";

const STANDBY = "bench_standby";
const QUORUM = `ANY 1 (${STANDBY})`;
const PAIRS = 4;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function query(url, text, values = []) {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until(what, check, ms = 30_000) {
  for (const started = Date.now(); Date.now() - started < ms;) {
    if (await check().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`never: ${what}`);
}

/** One JSON request as person `p`; its status, data and milliseconds. */
async function call(base, p, method, path, body, keyed = true) {
  const t0 = performance.now();
  const res = await fetch(base + path, {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(p.cookie ? { Cookie: p.cookie } : {}),
      ...(keyed && method !== "GET"
        ? { "Idempotency-Key": crypto.randomUUID() }
        : {}),
    },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  const set = res.headers.getSetCookie?.()[0];
  if (set && !/Max-Age=0/i.test(set)) p.cookie = set.split(";")[0];
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data, text, ms };
}

/**
 * Runs the section and prints its tables. `links`: the link round trips to
 * measure, in ms; `joins` and `payments`: how many of each per link and mode
 * (split over `turns`).
 */
export async function synchronousCommitSection({
  startServer,
  stopServer,
  cpuMs,
  port,
  turns = 5,
  links = [0, 20],
  joins = 200,
  payments = 100,
}) {
  const cleanups = [];
  // One cleanup, however many ask for it: a signal starts it, and the
  // requests it cuts off fail the run, whose `finally` must wait for the
  // same cleanup to finish before the error ends the process.
  let cleaning;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const step of cleanups.reverse()) {
        try {
          await step();
        } catch (error) {
          console.warn("commit bench: a cleanup step failed:", error.message);
        }
      }
    })());
  // Interrupted: the clusters are stopped before the bench exits (its own
  // exit hook kills the servers it started).
  const onSignal = (signal) => {
    void cleanup().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const primary = await startCluster();
    cleanups.push(() => primary.stop());
    const url = await createDatabase(primary.adminUrl, "commit");
    // As docs/operations.md tells operators: every other write stays fast.
    await query(
      primary.adminUrl,
      'ALTER DATABASE "commit" SET synchronous_commit = local',
    );
    let oneWayMs = 0;
    const link = await startRelay({
      to: primary.port,
      delayMs: () => oneWayMs,
    });
    cleanups.push(() => link.close());
    const standby = await startStandby(primary, {
      upstreamPort: link.port,
      applicationName: STANDBY,
    });
    cleanups.push(() => standby.stop());
    await until("the standby streams through the link", async () => {
      const [row] = await query(
        primary.adminUrl,
        "SELECT count(*)::int AS n FROM pg_stat_replication WHERE application_name = $1 AND state = 'streaming'",
        [STANDBY],
      );
      return row.n === 1;
    });

    const base = `http://localhost:${port}`;
    const server = await startServer("commit", {
      DEMO_MODE: "1",
      RATE_LIMITS: "off",
      METRICS_PORT: "off",
      SESSION_SECRET: "bench-commit",
      DATABASE_URL: url,
      PORT: String(port),
    });
    cleanups.push(() => stopServer(server));

    const setMode = async (mode) => {
      await query(
        primary.adminUrl,
        `ALTER SYSTEM SET synchronous_standby_names = '${mode === "sync" ? QUORUM : ""}'`,
      );
      await query(primary.adminUrl, "SELECT pg_reload_conf()");
      await until(`the standby ${mode}`, async () => {
        const [row] = await query(
          primary.adminUrl,
          "SELECT sync_state FROM pg_stat_replication WHERE application_name = $1",
          [STANDBY],
        );
        return row?.sync_state === (mode === "sync" ? "quorum" : "async");
      });
    };
    await setMode("async");

    // --- People and the bets they will join and pay ---------------------------
    const stamp = Date.now().toString(36);
    const pairs = [];
    for (let i = 0; i < PAIRS; i++) {
      const pair = [];
      for (const side of ["a", "b"]) {
        const p = { cookie: "", username: `sc${stamp}${side}${i}` };
        const r = await call(base, p, "POST", "/api/register", {
          username: p.username,
          email: `${p.username}@example.com`,
          password: "secret123",
        });
        if (r.status !== 201)
          throw new Error(`register ${p.username}: ${r.status} ${r.text}`);
        p.id = r.data.id;
        pair.push(p);
      }
      pairs.push(pair);
    }
    const must = (r, status, what) => {
      if (r.status !== status)
        throw new Error(
          `${what}: ${r.status} (expected ${status}) ${r.text.slice(0, 200)}`,
        );
      return r;
    };
    let made = 0;
    const createBet = async ([a]) => {
      made += 1;
      const r = must(
        await call(base, a, "POST", "/api/bets", {
          title: `Commit bench bet ${made}`,
          description: "Made to be joined or paid by the bench",
          amount: 5,
          deadline: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          visibility: "public",
        }),
        201,
        "create",
      );
      return r.data.id;
    };
    // A bet ready to be paid: joined, a settles with a as winner, b approves.
    const settledBet = async (pair) => {
      const [a, b] = pair;
      const id = await createBet(pair);
      must(
        await call(base, b, "POST", `/api/bets/${id}/join`, {}),
        200,
        "join",
      );
      must(
        await call(base, a, "POST", `/api/bets/${id}/propose-settlement`, {
          winnerId: a.id,
        }),
        201,
        "propose",
      );
      must(
        await call(base, b, "POST", `/api/settlements/${id}/approve`, {}),
        200,
        "approve",
      );
      return id;
    };
    const WARM_JOINS = 3;
    const WARM_PAYMENTS = 2;
    const blocks = links.length * turns * 2;
    const perTurn = (n) => Math.max(1, Math.round(n / turns));
    const needJoins = blocks * (perTurn(joins) + WARM_JOINS);
    const needPayments = blocks * (perTurn(payments) + WARM_PAYMENTS);
    console.info(
      `(preparing ${needJoins} bets to join and ${needPayments} settled bets to pay, ${PAIRS} pairs of people…)`,
    );
    // Each pair prepares its share, the pairs side by side.
    const ready = pairs.map(() => ({ toJoin: [], toPay: [] }));
    await Promise.all(
      pairs.map(async (pair, i) => {
        for (let k = i; k < needJoins; k += PAIRS)
          ready[i].toJoin.push(await createBet(pair));
        for (let k = i; k < needPayments; k += PAIRS)
          ready[i].toPay.push(await settledBet(pair));
      }),
    );
    let nextPair = 0;
    const takeBet = (kind) => {
      for (let tries = 0; tries < PAIRS; tries++) {
        const i = nextPair++ % PAIRS;
        const id = ready[i][kind].shift();
        if (id !== undefined) return { pair: pairs[i], id };
      }
      throw new Error(`no prepared bet left to ${kind}`);
    };

    // --- The requests measured -------------------------------------------------
    const failures = [];
    const expect = (r, status, what) => {
      if (r.status !== status)
        failures.push(`${what}: ${r.status} ${r.text.slice(0, 160)}`);
      return r;
    };
    const join = async () => {
      const { pair, id } = takeBet("toJoin");
      const r = expect(
        await call(base, pair[1], "POST", `/api/bets/${id}/join`, {}),
        200,
        "join",
      );
      return { join: r.ms };
    };
    const payment = async () => {
      const { pair, id } = takeBet("toPay");
      const b = pair[1];
      const intent = expect(
        await call(base, b, "POST", "/api/create-payment-intent", {
          betId: id,
        }),
        200,
        "payment intent",
      );
      const intentId = intent.data?.paymentIntentId;
      const card = expect(
        await call(base, b, "POST", "/api/payments/demo/confirm", {
          paymentIntentId: intentId,
          cardNumber: "4242424242424242",
          expiry: "12/40",
          cvc: "123",
        }),
        200,
        "card",
      );
      const recorded = expect(
        await call(base, b, "POST", `/api/bets/${id}/record-payment`, {
          paymentIntentId: intentId,
          amount: intent.data?.amount,
        }),
        200,
        "record payment",
      );
      return {
        intent: intent.ms,
        card: card.ms,
        record: recorded.ms,
        payment: intent.ms + card.ms + recorded.ms,
      };
    };
    let control = 0;
    const readMarker = async () => {
      const a = pairs[control++ % PAIRS][0];
      const r = expect(
        await call(base, a, "POST", "/api/activity/read", {}),
        204,
        "read marker",
      );
      return { control: r.ms };
    };

    // The work a request leaves behind (its notifications, delivered by the
    // outbox after the answer) is counted with it: a block's CPU is read once
    // the outbox has nothing due. The preparation's backlog is drained first.
    const watcher = new pg.Client({ connectionString: url });
    watcher.on("error", () => undefined);
    await watcher.connect();
    cleanups.push(() => watcher.end());
    const drained = async (ms) => {
      for (const started = Date.now(); Date.now() - started < ms;) {
        const { rows } = await watcher.query(
          "SELECT count(*)::int AS n FROM notification_deliveries WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1",
          [Date.now()],
        );
        if (rows[0].n === 0) return true;
        await sleep(50);
      }
      return false;
    };
    if (!(await drained(120_000)))
      console.info("(the outbox still had work due after 120 s)");

    // The server's CPU while nothing is asked of it.
    await sleep(1_000);
    const idle0 = cpuMs(server.pid);
    const idleT0 = performance.now();
    await sleep(3_000);
    const idleRate =
      (cpuMs(server.pid) - idle0) / ((performance.now() - idleT0) / 1000);

    // Commits that waited a round trip or more: the primary logs every
    // statement that took at least 90 % of the link's round trip
    // (log_min_duration_statement, set per link), and a block counts the
    // COMMITs among them. On loopback there is no telling; not counted.
    // And the connections the server opened (log_connections).
    await query(primary.adminUrl, "ALTER SYSTEM SET log_connections = on");
    const primaryLog = path.join(primary.dir, "log");
    const logSize = () => fs.statSync(primaryLog).size;
    const fromLog = (from) => {
      const fd = fs.openSync(primaryLog, "r");
      try {
        const length = logSize() - from;
        const buffer = Buffer.alloc(Math.max(0, length));
        fs.readSync(fd, buffer, 0, buffer.length, from);
        const text = String(buffer);
        return {
          waited: (
            text.match(/duration: [\d.]+ ms\s+statement: commit/gi) ?? []
          ).length,
          opened: (
            text.match(/connection authorized: user=\S+ database=commit\b/g) ??
            []
          ).length,
        };
      } finally {
        fs.closeSync(fd);
      }
    };

    // results[link][mode][kind] = { ms: [], cpu: 0, requests: 0, wall: 0 }
    const results = {};
    const loads = [os.loadavg()[0]];
    let undrained = 0;
    const block = async (into, requestsEach, count, fn) => {
      const log0 = logSize();
      const cpu0 = cpuMs(server.pid);
      const t0 = performance.now();
      const times = [];
      for (let i = 0; i < count; i++) times.push(await fn());
      if (!(await drained(15_000))) undrained += 1;
      const cpu = cpuMs(server.pid) - cpu0;
      const wall = performance.now() - t0;
      // The log is written a moment after the statement ends.
      await sleep(100);
      const { waited, opened } = fromLog(log0);
      for (const t of times)
        for (const [kind, ms] of Object.entries(t)) {
          into[kind] ??= { ms: [], cpu: 0, requests: 0, wall: 0 };
          into[kind].ms.push(ms);
        }
      // CPU belongs to the block; the block's kinds share it by request.
      for (const kind of Object.keys(times[0] ?? {})) {
        const k = into[kind];
        const share = kind === "payment" ? 1 : 1 / requestsEach;
        k.cpu += cpu * share;
        k.wall += wall * share;
        k.requests += kind === "payment" ? count * requestsEach : count;
        k.units = (k.units ?? 0) + count;
        k.waited = (k.waited ?? 0) + waited * share;
        k.opened = (k.opened ?? 0) + opened * share;
      }
    };
    for (const rtt of links) {
      oneWayMs = rtt / 2;
      results[rtt] = { sync: {}, async: {} };
      await query(
        primary.adminUrl,
        `ALTER SYSTEM SET log_min_duration_statement = ${rtt ? Math.floor(rtt * 0.9) : -1}`,
      );
      for (let turn = 0; turn < turns; turn++) {
        const order = turn % 2 ? ["async", "sync"] : ["sync", "async"];
        for (const mode of order) {
          await setMode(mode);
          // The pool's connections pick the new setting up at their next
          // statement: the first requests after a switch are not counted.
          for (let i = 0; i < WARM_JOINS; i++) await join();
          for (let i = 0; i < WARM_PAYMENTS; i++) await payment();
          const into = results[rtt][mode];
          await block(into, 1, perTurn(joins), join);
          await block(into, 3, perTurn(payments), payment);
          await block(into, 1, perTurn(payments), readMarker);
        }
      }
    }
    await setMode("async");
    loads.push(os.loadavg()[0]);
    print({ results, links, idleRate, failures, turns, loads, undrained });
    return { results, idleRate, failures };
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    await cleanup();
  }
}

const ROWS = [
  ["join", "a join (POST /api/bets/{id}/join)"],
  ["intent", "payment: the intent (POST /api/create-payment-intent)"],
  ["card", "payment: the card (POST /api/payments/demo/confirm)"],
  ["record", "payment: recorded (POST /api/bets/{id}/record-payment)"],
  ["payment", "a whole payment (the three above, one after another)"],
  ["control", "not money: a read marker (POST /api/activity/read)"],
];

function print({
  results,
  links,
  idleRate,
  failures,
  turns,
  loads,
  undrained,
}) {
  const f1 = (x) => (x === undefined ? "—" : x.toFixed(1));
  console.info(
    `\n## Synchronous commit: a join and a payment with the standby synchronous beside asynchronous (one server, one request at a time, each keyed; ${turns} turns per link, the mode swapped each turn; the database commits \`local\`, the app raises money and membership to \`on\`)\n`,
  );
  console.info(
    "| link round trip | request | n | p50 async | p50 sync | p50 added | p99 async | p99 sync | CPU async | CPU sync | CPU async, less idle | CPU sync, less idle | commits waiting ≥ 1 round trip, async / sync | connections opened, async / sync |",
  );
  console.info("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const rtt of links) {
    for (const [kind, label] of ROWS) {
      const a = results[rtt].async[kind];
      const s = results[rtt].sync[kind];
      if (!a || !s) continue;
      // CPU is measured per block: a payment's three requests share theirs.
      const cpu = (k, net = false) => {
        const ms = net ? k.cpu - (idleRate * k.wall) / 1000 : k.cpu;
        return `${(ms / k.units).toFixed(2)} ms${kind === "payment" ? ` (${(ms / k.requests).toFixed(2)} per request)` : ""}`;
      };
      const cpuCells = ["intent", "card", "record"].includes(kind)
        ? "in the payment's | | | |"
        : `${cpu(a)} | ${cpu(s)} | ${cpu(a, true)} | ${cpu(s, true)} |`;
      const waits = (k) => (rtt ? (k.waited / k.units).toFixed(1) : "—");
      const opened = (k) => (k.opened / k.units).toFixed(2);
      const waitCells = ["intent", "card", "record"].includes(kind)
        ? "in the payment's | |"
        : `${waits(a)} / ${waits(s)} | ${opened(a)} / ${opened(s)} |`;
      const added = pct(s.ms, 50) - pct(a.ms, 50);
      console.info(
        `| ${rtt} ms${rtt ? ` (${rtt / 2} ms each way)` : " (loopback)"} | ${label} | ${s.ms.length} | ${f1(pct(a.ms, 50))} ms | ${f1(pct(s.ms, 50))} ms | ${added >= 0 ? "+" : ""}${f1(added)} ms${rtt ? ` (${(added / rtt).toFixed(1)} round trips)` : ""} | ${f1(pct(a.ms, 99))} ms | ${f1(pct(s.ms, 99))} ms | ${cpuCells} ${waitCells}`,
      );
    }
  }
  console.info(
    `\nCPU is the server process's over a block of requests and the outbox deliveries they caused (read once none is due${undrained ? `; ${undrained} blocks read before that, after 15 s` : ""}). The server's CPU while idle: ${idleRate.toFixed(2)} ms per second (part of every block's CPU: a block that waits longer carries more of it; "less idle" takes it out).`,
  );
  console.info(
    `Load average of the machine (1 min) at the start and the end: ${loads.map((l) => l.toFixed(1)).join(", ")} (${os.cpus().length} cores).`,
  );
  console.info(
    `Failed requests: ${failures.length}${failures.length ? ` (first: ${failures[0]})` : ""}`,
  );
}
