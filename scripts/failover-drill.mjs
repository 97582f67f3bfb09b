// `npm run test:failover`: nothing acknowledged is lost when the primary
// dies (docs/decisions/1065-acknowledged-means-kept.md).
//
// A PostgreSQL primary with a synchronous standby whose replication
// connection crosses a relay that holds every byte 100–300 ms (as a link
// between two machines does: on loopback the standby never trails), a TCP
// stand-in for Fly's proxy in front of the primary, and two app servers
// reaching the database through it. Pairs of people make whole bets over
// HTTP (create, join, propose, approve, payment intent, card, record), every
// write under an Idempotency-Key, for about 20 s. At a random moment (from
// the printed seed) the primary is killed with SIGKILL, the standby is
// promoted and the stand-in switched to it; the clients send every write
// that got no answer again under its key until it is answered.
//
// Then a checker compares every acknowledged write with the promoted
// database and prints: acknowledged writes lost (must be 0), duplicates
// (0), the seconds without a primary, and the ledger check (every completed
// payment has its entries, each payment's entries sum to zero).
//
//   --seed=N              the run's seed (printed; a failing run's seed reproduces its kill moment and delays)
//   --seconds=20          how long the clients make bets
//   --pairs=6             pairs of people, each making bets one after another
//   --replication=async   the primary names no synchronous standby (`npm run bench` prints what that loses)
//   --report-only         print what was lost without failing (the bench)
import {
  createDatabase,
  databaseUrlOn,
  startCluster,
  startStandby,
} from "./lib/postgres-cluster.mjs";
import { startRelay } from "./lib/tcp-relay.mjs";
import { startServer } from "./lib/harness.mjs";
import { option } from "./lib/cli.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const seed = Number(
  option("seed", String(Math.floor(Math.random() * 2 ** 31))),
);
const SECONDS = Number(option("seconds", "20"));
const PAIRS = Number(option("pairs", "6"));
const SYNCHRONOUS = option("replication", "sync") !== "async";
const REPORT_ONLY = process.argv.includes("--report-only");
const STANDBY = "drill_standby";
// The app's windows, shortened: a claim whose request died with the
// primary is free again within 3 s.
const APP_ENV = { IDEMPOTENCY_LEASE_MS: "3000" };

/** mulberry32: the run's numbers, all from the seed. */
function seeded(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(seed);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const since = (t) => ((Date.now() - t) / 1000).toFixed(1);

async function rows(url, text, values = []) {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function until(what, check, ms = 60_000) {
  for (const started = Date.now(); Date.now() - started < ms;) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`never: ${what}`);
}

// --- The database, the link and the stand-in ---------------------------------

console.info(
  `failover drill: seed ${seed}, ${SYNCHRONOUS ? "synchronous" : "asynchronous"} standby, ${PAIRS} pairs for ${SECONDS} s`,
);
const primary = await startCluster({
  settings: SYNCHRONOUS
    ? { synchronous_standby_names: `ANY 1 (${STANDBY})` }
    : {},
});
const cleanups = [() => primary.stop()];
let exitCode = 1;
try {
  exitCode = await drill();
} catch (error) {
  console.error(error);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
process.exitCode = exitCode;

async function drill() {
  const primaryDb = await createDatabase(primary.adminUrl, "drill");
  const link = await startRelay({
    to: primary.port,
    delayMs: () => 100 + 200 * random(),
  });
  cleanups.push(() => link.close());
  const standby = await startStandby(primary, {
    upstreamPort: link.port,
    applicationName: STANDBY,
  });
  cleanups.push(() => standby.stop());
  const standbyDb = databaseUrlOn(standby, "drill");
  await until("the standby streams through the link", async () => {
    const [row] = await rows(
      primary.adminUrl,
      "SELECT count(*)::int AS n FROM pg_stat_replication WHERE application_name = $1 AND state = 'streaming'",
      [STANDBY],
    );
    return row.n === 1;
  });
  const proxy = await startRelay({ to: primary.port });
  cleanups.push(() => proxy.close());
  const viaProxy = new URL(primaryDb);
  viaProxy.port = String(proxy.port);

  const servers = [];
  for (let i = 0; i < 2; i++) {
    const server = startServer({
      // Unused on PostgreSQL; what the app keeps beside it goes there.
      dbPath: path.join(
        fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-drill-")),
        "unused.db",
      ),
      env: { DATABASE_URL: viaProxy.toString(), ...APP_ENV },
    });
    cleanups.push(async () => {
      server.child.kill("SIGTERM");
      await new Promise((r) =>
        server.child.exitCode !== null ? r() : server.child.once("exit", r),
      );
    });
    servers.push(await server.ready);
  }

  // --- People, made before the load and on the standby before it starts ----
  const stamp = seed.toString(36);
  const pairs = [];
  for (let i = 0; i < PAIRS; i++) {
    const a = await person(servers[i % 2], `dr${stamp}a${i}`);
    const b = await person(servers[(i + 1) % 2], `dr${stamp}b${i}`);
    pairs.push([a, b]);
  }
  const [{ lsn }] = await rows(
    primary.adminUrl,
    "SELECT pg_current_wal_lsn()::text AS lsn",
  );
  await until("the standby has the people", async () => {
    const [row] = await rows(
      standby.adminUrl,
      "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS there",
      [lsn],
    );
    return row.there;
  });

  // --- The load, the kill, the promotion --------------------------------------
  const log = { acknowledged: [], answerLost: [], refused: [], repeats: 0 };
  const started = Date.now();
  let stop = false;
  const killAt = 4_000 + random() * (SECONDS * 1000 - 8_000);
  const events = {};
  const loops = pairs.map(([a, b], i) =>
    cycles(a, b, i, () => stop, log, events),
  );
  await sleep(killAt);
  primary.kill();
  events.killed = Date.now();
  console.info(`primary killed (SIGKILL) ${since(started)} s into the load`);
  // Noticing takes a moment; then the standby is promoted and the stand-in
  // leads to it, as Fly's proxy leads to the machine now holding the primary.
  await sleep(1_000);
  standby.promote();
  proxy.switchTo(standby.port, { cut: true });
  events.promoted = Date.now();
  console.info(
    `standby promoted and the stand-in switched ${since(events.killed)} s after the kill`,
  );
  await sleep(Math.max(0, SECONDS * 1000 - (Date.now() - started)));
  stop = true;
  await Promise.all(loops);

  // --- The check ---------------------------------------------------------------
  const problems = [];
  const lost = [];
  for (const write of log.acknowledged) {
    if (!(await isThere(standbyDb, write))) lost.push(write);
  }
  const duplicates = [
    ...(await rows(
      standbyDb,
      "SELECT title AS what, count(*)::int AS n FROM bets GROUP BY title HAVING count(*) > 1",
    )),
    ...(await rows(
      standbyDb,
      "SELECT 'bet ' || bet_id || ' payments' AS what, count(*)::int AS n FROM payments WHERE status = 'completed' GROUP BY bet_id HAVING count(*) > 1",
    )),
    ...(await rows(
      standbyDb,
      "SELECT 'bet ' || bet_id || ' participants' AS what, count(*)::int AS n FROM bet_participants GROUP BY bet_id HAVING count(*) > 2",
    )),
    ...(await rows(
      standbyDb,
      "SELECT 'payment ' || payment_id || ' ' || kind || ' entries' AS what, count(*)::int AS n FROM ledger_entries GROUP BY payment_id, coalesce(user_id, 0), kind HAVING count(*) > 1",
    )),
  ];
  const unbalanced = await rows(
    standbyDb,
    "SELECT payment_id FROM ledger_entries GROUP BY payment_id HAVING sum(amount_cents) <> 0",
  );
  const [{ total }] = await rows(
    standbyDb,
    "SELECT coalesce(sum(amount_cents), 0)::int AS total FROM ledger_entries",
  );
  const withoutEntries = await rows(
    standbyDb,
    "SELECT p.id FROM payments p WHERE p.status = 'completed' AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.payment_id = p.id)",
  );
  const [{ paid, entries }] = await rows(
    standbyDb,
    "SELECT (SELECT count(*)::int FROM payments WHERE status = 'completed') AS paid, (SELECT count(*)::int FROM ledger_entries) AS entries",
  );
  const after = log.acknowledged.filter((w) => w.at > events.promoted).length;
  // The first write sent after the kill that was acknowledged.
  const firstAfter = log.acknowledged
    .filter((w) => w.sentAt > events.killed)
    .map((w) => w.at)
    .sort((x, y) => x - y)[0];

  console.info(
    `acknowledged writes: ${log.acknowledged.length} (${after} after the promotion); sent again after no answer: ${log.repeats}; carried out with the answer lost: ${log.answerLost.length}`,
  );
  const took = log.acknowledged
    .filter((w) => w.at < events.killed)
    .map((w) => w.at - w.sentAt)
    .sort((x, y) => x - y);
  console.info(
    `before the kill a write took ${took[Math.floor(took.length / 2)] ?? "-"} ms (median), ${took.at(-1) ?? "-"} ms at most`,
  );
  console.info(`acknowledged writes lost: ${lost.length}`);
  for (const write of lost.slice(0, 10))
    console.info(
      `  lost: ${write.kind} bet ${write.betId} (${since(write.at)} s ago, ${((events.killed - write.at) / 1000).toFixed(2)} s before the kill)`,
    );
  console.info(`duplicates: ${duplicates.length}`);
  for (const d of duplicates.slice(0, 10))
    console.info(`  duplicate: ${d.what} ×${d.n}`);
  console.info(
    `seconds without a primary: ${((events.promoted - events.killed) / 1000).toFixed(1)} (kill to promoted standby behind the stand-in); first write acknowledged again ${firstAfter ? ((firstAfter - events.killed) / 1000).toFixed(1) : "never"} s after the kill`,
  );
  const ledgerOk =
    unbalanced.length === 0 && total === 0 && withoutEntries.length === 0;
  console.info(
    `ledger: ${paid} completed payments, ${entries} entries, ${ledgerOk ? "each payment's entries sum to zero, none without entries" : `PROBLEM: ${unbalanced.length} payments not summing to zero, total ${total}, ${withoutEntries.length} completed without entries`}`,
  );

  if (lost.length) problems.push(`${lost.length} acknowledged writes lost`);
  if (duplicates.length) problems.push(`${duplicates.length} duplicates`);
  if (!ledgerOk) problems.push("the ledger check failed");
  if (log.refused.length) {
    problems.push(`${log.refused.length} writes refused`);
    for (const r of log.refused.slice(0, 5)) console.info(`  refused: ${r}`);
  }
  if (after === 0) problems.push("no write acknowledged after the promotion");
  if (paid === 0)
    problems.push("no payment completed: the ledger check checked nothing");
  if (problems.length === 0) {
    console.info(`✔ failover drill passed (seed ${seed})`);
    return 0;
  }
  console.info(
    `${REPORT_ONLY ? "what asynchronous replication cost" : "✖ FAILOVER DRILL FAILED"} (seed ${seed}): ${problems.join("; ")}`,
  );
  return REPORT_ONLY ? 0 : 1;
}

// --- Clients ---------------------------------------------------------------------

async function person(base, username) {
  const p = { base, cookie: "", username };
  const r = await call(p, "POST", "/api/register", {
    username,
    email: `${username}@example.com`,
    password: "secret123",
  });
  if (r.status !== 201)
    throw new Error(`register ${username}: ${r.status} ${r.text}`);
  p.id = r.data.id;
  return p;
}

async function call(p, method, path, body, headers = {}) {
  const res = await fetch(p.base + path, {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(p.cookie ? { Cookie: p.cookie } : {}),
      ...headers,
    },
    body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
    signal: AbortSignal.timeout(30_000),
  });
  const set = res.headers.getSetCookie?.()[0];
  if (set && !/Max-Age=0/i.test(set)) p.cookie = set.split(";")[0];
  const text = await res.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  return { status: res.status, data, text };
}

/**
 * One keyed write, sent until it is answered: no answer, 503 or "still
 * being processed" is sent again under the same key. Answers the final
 * answer; notes it in the log.
 */
async function keyed(p, kind, path, body, betId, log, expected) {
  const key = `${kind}-${crypto.randomUUID()}`;
  for (let attempt = 0; attempt < 400; attempt++) {
    if (attempt > 0) {
      log.repeats += 1;
      await sleep(250);
    }
    let r;
    const sentAt = Date.now();
    try {
      r = await call(p, "POST", path, body, { "Idempotency-Key": key });
    } catch {
      continue; // no answer
    }
    if (r.status === 503) continue;
    if (r.status === 409 && /still being processed/.test(r.text)) continue;
    if (r.status === 409 && /answer was lost/.test(r.text)) {
      log.answerLost.push({ kind, betId, at: Date.now() });
      return { lost: true };
    }
    if (r.status === expected) return { ...r, sentAt };
    log.refused.push(
      `${kind} bet ${betId}: ${r.status} ${r.text.slice(0, 200)}`,
    );
    return null;
  }
  log.refused.push(`${kind} bet ${betId}: never answered`);
  return null;
}

/** The pair's bets, one whole bet after another, until `stopped()`. */
async function cycles(a, b, i, stopped, log) {
  let n = 0;
  while (!stopped()) {
    n += 1;
    const title = `drill ${a.username} ${n}`;
    const ack = (kind, betId, answer, extra = {}) =>
      log.acknowledged.push({
        kind,
        betId,
        at: Date.now(),
        sentAt: answer.sentAt,
        ...extra,
      });
    const created = await keyed(
      a,
      "create",
      "/api/bets",
      {
        title,
        description: "A bet made while the primary may die",
        amount: 3 + (i % 5),
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
        visibility: "public",
      },
      null,
      log,
      201,
    );
    if (!created) return;
    let betId;
    if (created.lost) {
      const mine = await call(a, "GET", "/api/user/bets/created");
      betId = mine.data?.find?.((bet) => bet.title === title)?.id;
      if (!betId) {
        log.refused.push(
          `create ${title}: carried out, yet not among the creator's bets`,
        );
        return;
      }
    } else {
      betId = created.data.id;
      ack("create", betId, created, { title });
    }
    const joined = await keyed(
      b,
      "join",
      `/api/bets/${betId}/join`,
      {},
      betId,
      log,
      200,
    );
    if (!joined) return;
    if (!joined.lost) ack("join", betId, joined, { userId: b.id });
    const proposed = await keyed(
      a,
      "propose",
      `/api/bets/${betId}/propose-settlement`,
      { winnerId: a.id },
      betId,
      log,
      201,
    );
    if (!proposed) return;
    if (!proposed.lost) ack("propose", betId, proposed);
    const approved = await keyed(
      b,
      "approve",
      `/api/settlements/${betId}/approve`,
      {},
      betId,
      log,
      200,
    );
    if (!approved) return;
    if (!approved.lost) ack("approve", betId, approved);
    let intent = await keyed(
      b,
      "intent",
      "/api/create-payment-intent",
      { betId },
      betId,
      log,
      200,
    );
    // Its answer lost: the open intent is found again under a new key.
    if (intent?.lost)
      intent = await keyed(
        b,
        "intent",
        "/api/create-payment-intent",
        { betId },
        betId,
        log,
        200,
      );
    if (!intent || intent.lost) return;
    const intentId = intent.data.paymentIntentId;
    ack("intent", betId, intent, { intentId });
    const confirmed = await keyed(
      b,
      "confirm",
      "/api/payments/demo/confirm",
      {
        paymentIntentId: intentId,
        cardNumber: "4242424242424242",
        expiry: "12/40",
        cvc: "123",
      },
      betId,
      log,
      200,
    );
    if (!confirmed) return;
    if (!confirmed.lost) ack("confirm", betId, confirmed, { intentId });
    const recorded = await keyed(
      b,
      "pay",
      `/api/bets/${betId}/record-payment`,
      {
        paymentIntentId: intentId,
        amount: intent.data.amount,
      },
      betId,
      log,
      200,
    );
    if (!recorded) return;
    if (!recorded.lost) ack("pay", betId, recorded, { intentId });
  }
}

/** Whether an acknowledged write is in the database. */
async function isThere(url, write) {
  const one = async (text, values) =>
    (await rows(url, text, values)).length > 0;
  switch (write.kind) {
    case "create":
      return one("SELECT 1 FROM bets WHERE id = $1 AND title = $2", [
        write.betId,
        write.title,
      ]);
    case "join":
      return one(
        "SELECT 1 FROM bet_participants WHERE bet_id = $1 AND user_id = $2",
        [write.betId, write.userId],
      );
    case "propose":
      return one("SELECT 1 FROM settlements WHERE bet_id = $1", [write.betId]);
    case "approve":
      return one("SELECT 1 FROM bets WHERE id = $1 AND status = 'settled'", [
        write.betId,
      ]);
    case "intent":
      return one("SELECT 1 FROM demo_payment_intents WHERE id = $1", [
        write.intentId,
      ]);
    case "confirm":
      return one(
        "SELECT 1 FROM demo_payment_intents WHERE id = $1 AND status = 'succeeded'",
        [write.intentId],
      );
    case "pay":
      return one(
        "SELECT 1 FROM payments p WHERE p.bet_id = $1 AND p.status = 'completed' AND EXISTS (SELECT 1 FROM ledger_entries l WHERE l.payment_id = p.id)",
        [write.betId],
      );
    default:
      throw new Error(`unknown write ${write.kind}`);
  }
}
