// `npm run test:crash`: the production server under write load is killed
// with SIGKILL at random moments (≥ 100 times). After each kill the database
// must be whole: integrity_check ok, the ledger sums to zero globally and per
// payment, no settlement is final without its bet being settled (and the
// reverse), no payment is completed without its ledger entries (and the
// reverse), no bet has more than two participants, and every person's win
// and loss counts match their settled bets.
//
// Then the scheduler (docs/operations.md#workers): proposals nobody answers, with a window of
// seconds, while the server is killed again and again around the moment
// they fall due. After the last restart every such proposal is settled
// exactly once by the sweep, and each reminder was sent exactly once.
//
// `--engine=postgres`: the same on a throwaway PostgreSQL cluster, which
// outlives every kill (the app machine dies, the database does not).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Person, setBase, startServer, tomorrow } from "./lib/harness.mjs";
import { openInspector } from "./lib/inspect-db.mjs";
import { createDatabase, startCluster } from "./lib/postgres-cluster.mjs";

const arg = (name) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const POSTGRES = arg("engine") === "postgres";
const KILLS = Number(arg("kills") ?? process.env.CRASH_KILLS ?? 100);
const TIMEOUT_ROUNDS = Number(
  arg("rounds") ?? process.env.CRASH_TIMEOUT_ROUNDS ?? 12,
);
// The scheduler phase's windows (seconds), shortened through the environment.
const FAST = {
  RESPONSE_WINDOW_S: "2",
  PAYMENT_DUE_S: "2",
  SWEEP_INTERVAL_S: "1",
};
const PAIRS = 4;
// When, after the load starts, a kill lands: up to this long. A cycle (bet
// to recorded payment) takes longer on PostgreSQL, where every statement is
// a round trip: a wider spread lets payments complete between kills there.
// On a busy machine a cycle is slower still, so the spread also grows with
// the cycle time measured before the first kill.
const BASE_KILL_SPREAD_MS = POSTGRES ? 2_500 : 600;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-crash-"));
const dbPath = path.join(dir, "crash.db");
const cluster = POSTGRES ? await startCluster() : null;
const databaseEnv = cluster
  ? { DATABASE_URL: await createDatabase(cluster.adminUrl, "crash") }
  : { DATABASE_PATH: dbPath };
// A creation cut off after its key was claimed is sent again once the dead
// process's claim lapses: a 1 s lease instead of 10 s has lapsed by the time
// the server is back, so the run does not idle (only a repeat sent after a
// kill can take a lapsed claim, and the process that held it is dead).
const LEASE = { IDEMPOTENCY_LEASE_MS: "1000" };
const serve = (env = {}) =>
  startServer({ dbPath, env: { ...databaseEnv, ...LEASE, ...env } });

async function checkDatabase() {
  const db = await openInspector(databaseEnv);
  const problems = [];
  const integrity = await db.integrity();
  if (integrity !== "ok") problems.push(`integrity_check: ${integrity}`);
  const total = (
    await db.get(
      "SELECT coalesce(sum(amount_cents), 0) AS s FROM ledger_entries",
    )
  ).s;
  if (total !== 0) problems.push(`ledger sums to ${total}`);
  const badPayments = await db.all(
    "SELECT payment_id FROM ledger_entries GROUP BY payment_id HAVING sum(amount_cents) <> 0",
  );
  if (badPayments.length)
    problems.push(
      `payments not summing to zero: ${badPayments.map((r) => r.payment_id)}`,
    );
  const finalNotSettled =
    await db.all(`SELECT s.bet_id FROM settlements s JOIN bets b ON b.id = s.bet_id
       WHERE s.creator_approved = TRUE AND s.participant_approved = TRUE
         AND ((s.outcome = 'winner' AND (b.status <> 'settled' OR b.winner_id IS DISTINCT FROM s.winner_id OR s.settled_at IS NULL))
           OR (s.outcome = 'void' AND (b.status <> 'cancelled' OR b.voided_at IS NULL OR s.settled_at IS NULL)))`);
  if (finalNotSettled.length)
    problems.push(
      `approved settlements without their bet update: ${finalNotSettled.map((r) => r.bet_id)}`,
    );
  const settledWithout =
    await db.all(`SELECT b.id FROM bets b LEFT JOIN settlements s ON s.bet_id = b.id
       WHERE b.status = 'settled' AND (s.bet_id IS NULL OR s.settled_at IS NULL)`);
  if (settledWithout.length)
    problems.push(
      `settled bets without a final settlement: ${settledWithout.map((r) => r.id)}`,
    );
  const completedWithoutEntries = await db.all(
    `SELECT p.id FROM payments p WHERE p.status = 'completed' AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.payment_id = p.id)`,
  );
  if (completedWithoutEntries.length)
    problems.push(
      `completed payments without entries: ${completedWithoutEntries.map((r) => r.id)}`,
    );
  const entriesWithoutCompleted = await db.all(
    `SELECT DISTINCT l.payment_id FROM ledger_entries l JOIN payments p ON p.id = l.payment_id WHERE p.status <> 'completed'`,
  );
  if (entriesWithoutCompleted.length)
    problems.push(
      `entries for uncompleted payments: ${entriesWithoutCompleted.map((r) => r.payment_id)}`,
    );
  const paidMismatch =
    await db.all(`SELECT s.bet_id FROM settlements s WHERE (s.payment_status = 'completed') <>
         EXISTS (SELECT 1 FROM payments p WHERE p.bet_id = s.bet_id AND p.status = 'completed')`);
  if (paidMismatch.length)
    problems.push(
      `settlement payment status disagrees with payments: ${paidMismatch.map((r) => r.bet_id)}`,
    );
  const miscounted =
    await db.all(`SELECT u.username FROM users u WHERE u.username LIKE 'crash%' AND (
         u.win_count <> (SELECT count(*) FROM bets b WHERE b.status = 'settled' AND b.winner_id = u.id)
         OR u.loss_count <> (SELECT count(*) FROM settlements s JOIN bets b ON b.id = s.bet_id
                             WHERE b.status = 'settled' AND s.loser_id = u.id))`);
  if (miscounted.length)
    problems.push(
      `win/loss counts disagree with settled bets: ${miscounted.map((r) => r.username)}`,
    );
  const over = await db.all(
    "SELECT bet_id FROM bet_participants GROUP BY bet_id HAVING count(*) > 2",
  );
  if (over.length)
    problems.push(`bets over two participants: ${over.map((r) => r.bet_id)}`);
  const stats = await db.get(
    "SELECT (SELECT count(*) FROM bets) AS bets, (SELECT count(*) FROM payments WHERE status = 'completed') AS paid, (SELECT count(*) FROM ledger_entries) AS entries",
  );
  await db.close();
  return { problems, stats };
}

// Bets are made with an Idempotency-Key (docs/product-rules.md#repeats), the
// key as the title: a creation the kill cut off is sent again with its key
// after the restart, and must end as exactly one bet, whatever the moment
// of the kill (before the change, between the change and its kept answer,
// or after).
const cutCreations = new Map();
const repeatOutcomes = { replayed: 0, ranNow: 0, answerLost: 0 };
let creations = 0;

/** One pair's life: bet, join, propose, approve, pay — over and over. */
async function cycle(a, b, stopped) {
  while (!stopped()) {
    try {
      const key = `crash-${stamp}-${(creations += 1)}`;
      const body = {
        title: key,
        description: "Killed at random",
        amount: 7,
        deadline: tomorrow(),
        visibility: "public",
      };
      cutCreations.set(key, { person: a, body });
      const bet = await a.call("POST", "/api/bets", body, {
        "Idempotency-Key": key,
      });
      cutCreations.delete(key);
      if (bet.status !== 201) continue;
      const id = bet.data.id;
      await b.call("POST", `/api/bets/${id}/join`, {});
      await a.call("POST", `/api/bets/${id}/propose-settlement`, {
        winnerId: a.id,
      });
      await b.call("POST", `/api/settlements/${id}/approve`, {});
      const intent = await b.call("POST", "/api/create-payment-intent", {
        betId: id,
      });
      if (intent.status !== 200) continue;
      const paymentIntentId = intent.data.paymentIntentId;
      await b.call("POST", "/api/payments/demo/confirm", {
        paymentIntentId,
        cardNumber: "4242424242424242",
        expiry: "12/40",
        cvc: "123",
      });
      await b.call("POST", `/api/bets/${id}/record-payment`, {
        paymentIntentId,
        amount: 7,
      });
    } catch {
      // The server died mid-request: expected, it is being killed.
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

let server = serve();
const base = await server.ready;
const stamp = Date.now().toString(36);
const pairs = [];
for (let i = 0; i < PAIRS; i++) {
  pairs.push([
    await new Person(base).register(`crash${stamp}a${i}`),
    await new Person(base).register(`crash${stamp}b${i}`),
  ]);
}

// One cycle per pair, unkilled: how long the way to a payment takes here.
const calibrationStarted = Date.now();
await Promise.all(
  pairs.map(([a, b]) => {
    let ran = false;
    return cycle(a, b, () => ran || !(ran = true));
  }),
);
const cycleMs = Date.now() - calibrationStarted;
const KILL_SPREAD_MS = Math.max(BASE_KILL_SPREAD_MS, 1.5 * cycleMs);
const paidBeforeKills = (await checkDatabase()).stats.paid;

let failures = 0;
let last;
for (let kill = 1; kill <= KILLS; kill++) {
  let stop = false;
  const loops = pairs.map(([a, b]) => cycle(a, b, () => stop));
  await new Promise((r) => setTimeout(r, 150 + Math.random() * KILL_SPREAD_MS));
  server.child.kill("SIGKILL");
  await new Promise((r) => server.child.once("exit", r));
  stop = true;
  await Promise.all(loops);
  const { problems, stats } = await checkDatabase();
  last = stats;
  if (problems.length) {
    failures += 1;
    console.error(`after kill ${kill}: ${problems.join("; ")}`);
  }
  server = serve();
  setBase(pairs.flat(), await server.ready);
  const unrepeated = await repeatCutCreations();
  if (unrepeated.length) {
    failures += 1;
    console.error(`after kill ${kill}: ${unrepeated.join("; ")}`);
  }
}
console.info(
  `cut creations sent again: ${repeatOutcomes.replayed} got the kept answer, ${repeatOutcomes.ranNow} had not happened and ran now, ${repeatOutcomes.answerLost} had happened with their answer lost`,
);

/** Sends every creation the kill cut off again, with its key; each must be one bet. */
async function repeatCutCreations() {
  const problems = [];
  for (const [key, { person, body }] of cutCreations) {
    let res;
    for (const until = Date.now() + 20_000; Date.now() < until;) {
      res = await person.call("POST", "/api/bets", body, {
        "Idempotency-Key": key,
      });
      // The dead process's claim is free again once its lease runs out.
      if (res.status !== 409 || !/still being processed/.test(res.text)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (res.status === 201)
      repeatOutcomes[res.replayed ? "replayed" : "ranNow"] += 1;
    else if (res.status === 409 && /answer was lost/.test(res.text))
      repeatOutcomes.answerLost += 1;
    else problems.push(`${key} sent again: ${res.status} ${res.text}`);
    const db = await openInspector(databaseEnv);
    const made = (
      await db.get("SELECT count(*) AS n FROM bets WHERE title = ?", [key])
    ).n;
    await db.close();
    if (made !== 1) problems.push(`${key} made ${made} bets`);
  }
  cutCreations.clear();
  return problems;
}
// --- The scheduler: timeouts and reminders due while the server dies -------------

/** Proposals nobody will answer: the sweep must settle each, once. */
async function unansweredProposals(a, b, count) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    try {
      const bet = await a.call("POST", "/api/bets", {
        title: "Silent bet",
        description: "Nobody answers this proposal",
        amount: 5,
        deadline: tomorrow(),
        visibility: "public",
      });
      if (bet.status !== 201) continue;
      const join = await b.call("POST", `/api/bets/${bet.data.id}/join`, {});
      if (join.status !== 200) continue;
      const p = await a.call(
        "POST",
        `/api/bets/${bet.data.id}/propose-settlement`,
        { winnerId: a.id },
      );
      if (p.status === 201) ids.push(bet.data.id);
    } catch {
      // killed mid-request
    }
  }
  return ids;
}

server.child.kill("SIGTERM");
await new Promise((r) => server.child.once("exit", r));
server = serve(FAST);
setBase(pairs.flat(), await server.ready);
const silent = [];
for (let round = 1; round <= TIMEOUT_ROUNDS; round++) {
  const made = await Promise.all(
    pairs.map(([a, b]) => unansweredProposals(a, b, 2)),
  );
  silent.push(...made.flat());
  // Kill somewhere around the moment the window (2 s) ends and the sweep
  // (every 1 s) settles them.
  await new Promise((r) => setTimeout(r, 1200 + Math.random() * 2000));
  server.child.kill("SIGKILL");
  await new Promise((r) => server.child.once("exit", r));
  const { problems } = await checkDatabase();
  if (problems.length) {
    failures += 1;
    console.error(`after scheduler kill ${round}: ${problems.join("; ")}`);
  }
  server = serve(FAST);
  setBase(pairs.flat(), await server.ready);
}
// Let the last restart's sweep catch up, then count.
const settledAll = async () => {
  const db = await openInspector(databaseEnv);
  const open = (
    await db.get(
      `SELECT count(*) AS n FROM bets WHERE id IN (${silent.join(",") || 0}) AND status <> 'settled'`,
    )
  ).n;
  await db.close();
  return open === 0;
};
for (let i = 0; i < 40 && !(await settledAll()); i++)
  await new Promise((r) => setTimeout(r, 500));
server.child.kill("SIGTERM");
await new Promise((r) => server.child.once("exit", r));
{
  const db = await openInspector(databaseEnv);
  const problems = (await checkDatabase()).problems;
  const list = silent.join(",") || "0";
  const unsettled = await db.all(
    `SELECT id FROM bets WHERE id IN (${list}) AND status <> 'settled'`,
  );
  if (unsettled.length)
    problems.push(`proposals never timed out: ${unsettled.map((r) => r.id)}`);
  const settledTwice = await db.all(
    `SELECT bet_id FROM bet_events WHERE bet_id IN (${list}) AND type = 'settled' GROUP BY bet_id HAVING count(*) <> 1`,
  );
  if (settledTwice.length)
    problems.push(
      `timed-out bets settled other than once: ${settledTwice.map((r) => r.bet_id)}`,
    );
  const notTimeout = await db.all(
    `SELECT bet_id FROM settlements WHERE bet_id IN (${list}) AND resolution IS DISTINCT FROM 'timeout'`,
  );
  if (notTimeout.length)
    problems.push(
      `silent proposals settled other than by timeout: ${notTimeout.map((r) => r.bet_id)}`,
    );
  const reminders = (
    await db.all(`SELECT b.id, (SELECT count(*) FROM activity_events e WHERE e.bet_id = b.id AND e.type = 'settlement_reminder') AS n,
              (SELECT count(*) FROM activity_events e WHERE e.bet_id = b.id AND e.type = 'bet_settled') AS told
       FROM bets b WHERE b.id IN (${list})`)
  ).filter((r) => r.n !== 2 || r.told !== 2);
  if (reminders.length)
    problems.push(
      `reminders or settlement notices not sent exactly once: ${reminders.map((r) => `${r.id}(${r.n}/${r.told})`)}`,
    );
  const stuck = (
    await db.get(
      `SELECT count(*) AS n FROM jobs WHERE done_at IS NULL AND run_at < ? AND kind LIKE 'settlement_%'`,
      [Date.now() - 5000],
    )
  ).n;
  if (stuck) problems.push(`${stuck} due settlement jobs never ran`);
  await db.close();
  if (problems.length) {
    failures += 1;
    console.error(`scheduler: ${problems.join("; ")}`);
  }
}
// Kills that never let a payment complete would leave the money checks
// nothing to check.
const MIN_COMPLETED_PAYMENTS = 10;
const paidBetweenKills = last.paid - paidBeforeKills;
if (paidBetweenKills < MIN_COMPLETED_PAYMENTS) {
  failures += 1;
  console.error(
    `only ${paidBetweenKills} payments completed between the kills (at least ${MIN_COMPLETED_PAYMENTS} needed for the ledger checks to mean something)`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
cluster?.stop();
console.info(
  `Crash safety${cluster ? " on PostgreSQL" : ""}: ${KILLS} SIGKILLs under load, each within ${Math.round(150 + KILL_SPREAD_MS)} ms of the load starting (a cycle took ${cycleMs} ms unkilled); ${paidBetweenKills} payments completed between the kills; ${last.bets} bets, ${last.paid} completed payments, ${last.entries} ledger entries at the end`,
);
console.info(
  `Scheduler: ${TIMEOUT_ROUNDS} SIGKILLs around due timeouts; ${silent.length} unanswered proposals, each settled once by timeout with two reminders`,
);
console.info(
  failures
    ? `CRASH TEST FAILED after ${failures} kills`
    : "crash test passed: every invariant held after every kill",
);
process.exit(failures ? 1 : 0);
