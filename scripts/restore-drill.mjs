// `npm run test:restore`: the volume is lost (docs/operations.md#litestream). The
// production launcher (build/server.js) runs the server under Litestream,
// replicating to a file:// replica; pairs of people bet, settle and pay as
// in the crash test; everything is SIGKILLed (server and Litestream alike);
// the database, its WAL and SHM and Litestream's own folder are deleted;
// the launcher starts again, which restores from the replica. Then: the
// database is whole (integrity_check ok), the ledger sums to zero, sessions
// survived, and every payment acknowledged more than two sync intervals
// before the kill is there (the next tick, and its upload). Prints the measured loss window. Last, after a
// graceful stop, the replica restored by hand holds every write.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { Person, setBase, startServer, tomorrow } from "./lib/harness.mjs";

const SYNC_INTERVAL_MS = 1_000;
// What may be lost: a commit waits for Litestream's next tick (at most one
// interval), and that tick's upload takes time of its own, more on a busy
// machine; a kill during that upload loses what it carried. A CI run saw a
// commit acknowledged 1049 ms before the kill missing while one 1128 ms
// before was kept: the tick ~130 ms before the kill had not finished. So the
// drill allows one more interval for the upload and prints the window it saw.
const LOSS_BOUND_MS = 2 * SYNC_INTERVAL_MS;
const LOAD_MS = Number(process.env.RESTORE_LOAD_MS ?? 6_000);
const PAIRS = 4;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-restore-"));
const dbPath = path.join(dir, "data", "fairshake.db");
const replica = pathToFileURL(path.join(dir, "replica")).href;
const start = () =>
  startServer({
    dbPath,
    entry: "build/server.js",
    detached: true,
    env: {
      LITESTREAM_REPLICA_URL: replica,
      LITESTREAM_SYNC_INTERVAL: `${SYNC_INTERVAL_MS}ms`,
      METRICS_PORT: "off",
    },
  });

/** Acknowledged payments: bet id → when the server said 200. */
const acked = new Map();

async function cycle(a, b, stopped) {
  while (!stopped()) {
    try {
      const bet = await a.call("POST", "/api/bets", {
        title: "Drill bet",
        description: "Paid, then the volume is lost",
        amount: 9,
        deadline: tomorrow(),
        visibility: "public",
      });
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
      const { paymentIntentId } = intent.data;
      await b.call("POST", "/api/payments/demo/confirm", {
        paymentIntentId,
        cardNumber: "4242424242424242",
        expiry: "12/40",
        cvc: "123",
      });
      const paid = await b.call("POST", `/api/bets/${id}/record-payment`, {
        paymentIntentId,
        amount: 9,
      });
      if (paid.status === 200) acked.set(id, Date.now());
    } catch {
      return; // killed mid-request
    }
  }
}

let server = start();
const base = await server.ready;
const stamp = Date.now().toString(36);
const pairs = [];
for (let i = 0; i < PAIRS; i++)
  pairs.push([
    await new Person(base).register(`drill${stamp}a${i}`),
    await new Person(base).register(`drill${stamp}b${i}`),
  ]);

let stop = false;
const loops = pairs.map(([a, b]) => cycle(a, b, () => stop));
await new Promise((r) => setTimeout(r, LOAD_MS));
const exited = new Promise((r) => server.child.once("exit", r));
process.kill(-server.child.pid, "SIGKILL");
const killedAt = Date.now();
stop = true;
await exited;
await Promise.all(loops);
await new Promise((r) => setTimeout(r, 200)); // the group's last members go

// The volume is gone.
const lost = fs
  .readdirSync(path.dirname(dbPath))
  .filter((f) => f.startsWith("fairshake.db") || f.startsWith(".fairshake.db"));
fs.rmSync(path.dirname(dbPath), { recursive: true, force: true });

const restoreStarted = Date.now();
server = start();
setBase(pairs.flat(), await server.ready);
const restoreMs = Date.now() - restoreStarted;
const problems = [];
const me = await pairs[0][0].call("GET", "/api/user");
if (me.status !== 200) problems.push(`a session did not survive: ${me.status}`);
const after = await pairs[0][0].call("POST", "/api/bets", {
  title: "After the restore",
  description: "Writes work again",
  amount: 1,
  deadline: tomorrow(),
  visibility: "public",
});
if (after.status !== 201)
  problems.push(`a write after the restore: ${after.status}`);
const stopped = new Promise((r) => server.child.once("exit", r));
server.child.kill("SIGTERM");
const exitCode = await stopped;
if (exitCode !== 0)
  problems.push(`graceful stop under Litestream exited ${exitCode}`);

const db = new Database(dbPath, { readonly: true });
const integrity = db.pragma("integrity_check", { simple: true });
if (integrity !== "ok") problems.push(`integrity_check: ${integrity}`);
const sum = db
  .prepare("SELECT coalesce(sum(amount_cents), 0) AS s FROM ledger_entries")
  .get().s;
if (sum !== 0) problems.push(`ledger sums to ${sum}`);
const paidStatement = db.prepare(
  "SELECT count(*) AS n FROM payments WHERE bet_id = ? AND status = 'completed'",
);
let missingOld = 0;
let missing = 0;
let oldestMissingAge = 0;
let newestPresentAge = Infinity;
for (const [betId, at] of acked) {
  const age = killedAt - at;
  if (paidStatement.get(betId).n === 1) {
    newestPresentAge = Math.min(newestPresentAge, age);
    continue;
  }
  missing += 1;
  oldestMissingAge = Math.max(oldestMissingAge, age);
  if (age > LOSS_BOUND_MS) missingOld += 1;
}
const paidHere = db
  .prepare("SELECT count(*) AS n FROM payments WHERE status = 'completed'")
  .get().n;
db.close();

// A graceful stop under Litestream loses nothing: the replica, restored to
// a side file by hand (`node build/server.js restore <file>`), has the
// bet written after the restore and every payment.
const checkPath = path.join(dir, "check.db");
const check = spawnSync(
  process.execPath,
  ["build/server.js", "restore", checkPath],
  {
    env: {
      ...process.env,
      LITESTREAM_REPLICA_URL: replica,
      DATABASE_PATH: dbPath,
    },
    stdio: ["ignore", "ignore", "pipe"],
  },
);
if (check.status !== 0) problems.push(`restore by hand: ${check.stderr}`);
else {
  const copy = new Database(checkPath, { readonly: true });
  const last = copy
    .prepare("SELECT count(*) AS n FROM bets WHERE title = 'After the restore'")
    .get().n;
  const paidThere = copy
    .prepare("SELECT count(*) AS n FROM payments WHERE status = 'completed'")
    .get().n;
  copy.close();
  if (last !== 1 || paidThere !== paidHere)
    problems.push(
      `the replica after a graceful stop lacks writes: ${last} last bet, ${paidThere}/${paidHere} payments`,
    );
}
fs.rmSync(dir, { recursive: true, force: true });
if (acked.size < 10) problems.push(`only ${acked.size} payments under load`);
if (missingOld)
  problems.push(
    `${missingOld} payments acknowledged more than ${LOSS_BOUND_MS} ms (two sync intervals) before the kill are missing`,
  );

console.info(
  `Restore drill: ${acked.size} payments acknowledged in ${LOAD_MS / 1000} s, then SIGKILL and the volume deleted (${lost.join(", ")})`,
);
console.info(
  `  restored and serving again in ${restoreMs} ms; integrity ${integrity}; ledger Σ = ${sum}`,
);
console.info(
  `  loss window: ${missing} acknowledged payments missing${missing ? `, the oldest acknowledged ${oldestMissingAge} ms before the kill` : ""}; newest one kept was acknowledged ${Number.isFinite(newestPresentAge) ? `${newestPresentAge} ms` : "—"} before the kill (sync interval ${SYNC_INTERVAL_MS} ms)`,
);
for (const p of problems) console.error(`  ${p}`);
console.info(problems.length ? "RESTORE DRILL FAILED" : "restore drill passed");
process.exit(problems.length ? 1 : 0);
