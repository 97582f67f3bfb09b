// `npm run test:storm`: a join storm against the production server (also
// run with `--workers=2`: two worker processes behind one port, and with
// `--engine=postgres`: on a throwaway PostgreSQL cluster).
// 500 bets × 20 simultaneous joins over HTTP. The first fifth runs alone,
// the rest while 4 other processes write to the same database directly
// through the models; the server's answer rate is printed for both, so
// what the direct writers cost the server shows (the goal: at least half
// its rate without them). Passes only with 0 bets over 2 participants,
// 0 server errors and 0 'database is locked'; the rates are reported, not
// judged, on a shared machine. STORM_LOG=file keeps the server's log of a
// failed run (and, on PostgreSQL, what its sessions were waiting on).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { Person, startServer, tomorrow } from "./lib/harness.mjs";
import { createDatabase, startCluster } from "./lib/postgres-cluster.mjs";

const BETS = Number(
  process.argv.find((a) => a.startsWith("--bets="))?.split("=")[1] ??
    process.env.STORM_BETS ??
    500,
);
const JOINERS = 20;
const WRITERS = 4;
const BATCH = 10; // bets stormed at once: 200 requests in flight

// --workers=2: the server as WEB_CONCURRENCY worker processes (docs/operations.md#workers).
const WORKERS = Number(
  process.argv.find((a) => a.startsWith("--workers="))?.split("=")[1] ?? 1,
);

const POSTGRES =
  process.argv.find((a) => a.startsWith("--engine="))?.split("=")[1] ===
  "postgres";
// Bets stormed before the direct writers start: the rate to compare with.
const ALONE = Math.max(BATCH, Math.round(BETS / 5 / BATCH) * BATCH);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-storm-"));
const dbPath = path.join(dir, "storm.db");
const cluster = POSTGRES ? await startCluster() : null;
const databaseEnv = cluster
  ? { DATABASE_URL: await createDatabase(cluster.adminUrl, "storm") }
  : { DATABASE_PATH: dbPath };
const server = startServer({
  dbPath,
  env: {
    ...databaseEnv,
    ...(WORKERS > 1
      ? { WEB_CONCURRENCY: String(WORKERS), METRICS_PORT: "off" }
      : {}),
  },
});
const base = await server.ready;
if (cluster && process.env.STORM_LOG) {
  const watcher = new pg.Client({ connectionString: databaseEnv.DATABASE_URL });
  await watcher.connect();
  setInterval(async () => {
    const r = await watcher.query(
      "SELECT pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) AS blockers, now() - xact_start AS age, left(query, 90) AS q FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' ORDER BY xact_start",
    );
    fs.appendFileSync(
      process.env.STORM_LOG + ".activity",
      JSON.stringify(r.rows) + "\n",
    );
  }, 2000).unref();
}

const stamp = Date.now().toString(36);
const creator = await new Person(base).register(`storm${stamp}c`);
const joiners = await Promise.all(
  Array.from({ length: JOINERS }, (_, i) =>
    new Person(base).register(`storm${stamp}j${i}`),
  ),
);

// Direct writers: separate processes with their own connections, started
// once the storm has run alone for a while. Each says "ready" when it has
// its users and begins writing.
let writers = [];
let writerDone = [];
async function startWriters() {
  writers = Array.from({ length: WRITERS }, (_, i) =>
    spawn(
      process.execPath,
      ["--import", "tsx", "scripts/lib/direct-writer.ts", dbPath, String(i)],
      {
        stdio: ["pipe", "pipe", "inherit"],
        env: { ...process.env, ...databaseEnv },
      },
    ),
  );
  const ready = [];
  writerDone = writers.map((w) => {
    let out = "";
    let says;
    ready.push(new Promise((resolve) => (says = resolve)));
    w.stdout.on("data", (c) => {
      out += c;
      if (out.includes("ready\n")) says();
    });
    return new Promise((resolve) => {
      // "close" fires once stdout is read to its end; "exit" can come first.
      w.on("close", (code) => {
        says();
        resolve({ code, out: out.replace("ready\n", "") });
      });
    });
  });
  await Promise.all(ready);
}

const statuses = new Map();
let locked = 0;
const count = (s) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
let started = performance.now();
let aloneSeconds = 0;
let aloneAnswers = 0;
let answers = 0;
for (let offset = 0; offset < BETS; offset += BATCH) {
  if (offset === ALONE) {
    aloneSeconds = (performance.now() - started) / 1000;
    aloneAnswers = answers;
    await startWriters();
    started = performance.now();
  }
  const batch = await Promise.all(
    Array.from({ length: Math.min(BATCH, BETS - offset) }, (_, i) =>
      creator.call("POST", "/api/bets", {
        title: `Storm bet ${offset + i}`,
        description: "Twenty people try to join at once",
        amount: 5,
        deadline: tomorrow(),
        visibility: "public",
      }),
    ),
  );
  for (const b of batch)
    if (b.status !== 201)
      throw new Error(`create failed: ${b.status} ${b.text}`);
  const results = await Promise.all(
    batch.flatMap((b) =>
      joiners.map((j) => j.call("POST", `/api/bets/${b.data.id}/join`, {})),
    ),
  );
  answers += batch.length + results.length;
  for (const r of results) {
    count(r.status);
    if (/database is locked|SQLITE_BUSY/i.test(r.text)) locked += 1;
  }
}
const seconds = (performance.now() - started) / 1000;
for (const w of writers) w.stdin.end("stop\n");
const writerResults = await Promise.all(writerDone);
// Stopped and waited for, as the other lanes do: a server left to stop
// after this process had gone lived on, its log's reader gone with it.
const stopped = new Promise((r) => server.child.once("exit", r));
server.child.kill("SIGTERM");
const stopTimer = setTimeout(() => {
  console.warn("the server did not stop within 20 s of SIGTERM: killed");
  server.child.kill("SIGKILL");
}, 20_000);
await stopped;
clearTimeout(stopTimer);

const checks = {
  over: "SELECT count(*) AS n FROM (SELECT bet_id FROM bet_participants GROUP BY bet_id HAVING count(*) > 2) AS crowded",
  stormBets: "SELECT count(*) AS n FROM bets WHERE title LIKE 'Storm bet %'",
  stormFull:
    "SELECT count(*) AS n FROM bets b WHERE title LIKE 'Storm bet %' AND status = 'active' AND (SELECT count(*) FROM bet_participants p WHERE p.bet_id = b.id) = 2",
};
const found = {};
let integrity = "not a SQLite file";
if (cluster) {
  const client = new pg.Client({ connectionString: databaseEnv.DATABASE_URL });
  await client.connect();
  for (const [name, text] of Object.entries(checks))
    found[name] = Number((await client.query(text)).rows[0].n);
  await client.end();
  cluster.stop();
} else {
  const db = new Database(dbPath, { readonly: true });
  for (const [name, text] of Object.entries(checks))
    found[name] = db.prepare(text).get().n;
  integrity = db.pragma("integrity_check", { simple: true });
  db.close();
}
const { over, stormBets, stormFull } = found;
fs.rmSync(dir, { recursive: true, force: true });

const aloneRate = aloneAnswers / aloneSeconds;
const withWritersRate = (answers - aloneAnswers) / seconds;
const writerOps = writerResults.reduce(
  (sum, w) => sum + Number(/(\d+) writes/.exec(w.out)?.[1] ?? 0),
  0,
);
const serverErrors = [...statuses]
  .filter(([s]) => s >= 500)
  .reduce((a, [, n]) => a + n, 0);
const ok = statuses.get(200) ?? 0;
const writerLines = writerResults.map((w) => w.out.trim()).join(", ");
console.info(
  `Join storm${WORKERS > 1 ? ` (${WORKERS} workers)` : ""} on ${cluster ? "PostgreSQL" : "SQLite"}: ${BETS} bets × ${JOINERS} joins in ${(aloneSeconds + seconds).toFixed(1)} s`,
);
console.info(
  `  server answer rate: ${aloneRate.toFixed(0)}/s alone (${ALONE} bets), ${withWritersRate.toFixed(0)}/s beside the direct writers (${(withWritersRate / aloneRate).toFixed(2)}×, goal ≥ 0.5×); the writers: ${(writerOps / seconds).toFixed(0)} writes/s`,
);
console.info(
  `  answers: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(", ")}`,
);
console.info(`  direct writers: ${writerLines}`);
console.info(`  bets with more than 2 participants: ${over}`);
console.info(
  `  storm bets full and active: ${stormFull}/${stormBets}; successful joins: ${ok}`,
);
console.info(
  `  server errors: ${serverErrors}; 'database is locked': ${locked}; integrity: ${integrity}`,
);
// With workers, each must have answered its share.
const answeringPids = new Set(
  server
    .log()
    .split("\n")
    .filter((l) => l.includes('"requestId"'))
    .map((l) => JSON.parse(l).pid),
);
if (WORKERS > 1)
  console.info(
    `  processes that answered: ${answeringPids.size} of ${WORKERS}`,
  );
const failed =
  answeringPids.size < WORKERS ||
  over !== 0 ||
  serverErrors !== 0 ||
  locked !== 0 ||
  ok !== BETS ||
  stormFull !== BETS ||
  (!cluster && integrity !== "ok") ||
  writerResults.some((w) => w.code !== 0);
if (failed && process.env.STORM_LOG)
  fs.writeFileSync(process.env.STORM_LOG, server.log());
console.info(failed ? "STORM FAILED" : "storm passed");
process.exit(failed ? 1 : 0);
