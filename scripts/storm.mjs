// `npm run test:storm`: a join storm against the production server (also
// run with `--workers=2`: two worker processes behind one port).
// 500 bets × 20 simultaneous joins over HTTP, while 4 other processes write
// to the same database directly through the models. Passes only with
// 0 bets over 2 participants, 0 server errors and 0 'database is locked'.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Person, startServer, tomorrow } from "./lib/harness.mjs";

const BETS = Number(process.env.STORM_BETS ?? 500);
const JOINERS = 20;
const WRITERS = 4;
const BATCH = 10; // bets stormed at once: 200 requests in flight

// --workers=2: the server as WEB_CONCURRENCY worker processes (docs/operations.md#workers).
const WORKERS = Number(
  process.argv.find((a) => a.startsWith("--workers="))?.split("=")[1] ?? 1,
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-storm-"));
const dbPath = path.join(dir, "storm.db");
const server = startServer({
  dbPath,
  env:
    WORKERS > 1
      ? { WEB_CONCURRENCY: String(WORKERS), METRICS_PORT: "off" }
      : {},
});
const base = await server.ready;

const stamp = Date.now().toString(36);
const creator = await new Person(base).register(`storm${stamp}c`);
const joiners = await Promise.all(
  Array.from({ length: JOINERS }, (_, i) =>
    new Person(base).register(`storm${stamp}j${i}`),
  ),
);

// Direct writers: separate processes with their own connections.
const writers = Array.from({ length: WRITERS }, (_, i) =>
  spawn(
    process.execPath,
    ["--import", "tsx", "scripts/lib/direct-writer.ts", dbPath, String(i)],
    { stdio: ["pipe", "pipe", "inherit"] },
  ),
);
const writerDone = writers.map(
  (w) =>
    new Promise((resolve) => {
      let out = "";
      w.stdout.on("data", (c) => (out += c));
      w.on("exit", (code) => resolve({ code, out }));
    }),
);

const statuses = new Map();
let locked = 0;
const count = (s) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
const started = performance.now();
for (let offset = 0; offset < BETS; offset += BATCH) {
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
  for (const r of results) {
    count(r.status);
    if (/database is locked|SQLITE_BUSY/i.test(r.text)) locked += 1;
  }
}
const seconds = (performance.now() - started) / 1000;
for (const w of writers) w.stdin.end("stop\n");
const writerResults = await Promise.all(writerDone);
server.child.kill("SIGTERM");

const db = new Database(dbPath, { readonly: true });
const over = db
  .prepare(
    "SELECT count(*) AS n FROM (SELECT bet_id FROM bet_participants GROUP BY bet_id HAVING count(*) > 2)",
  )
  .get().n;
const stormBets = db
  .prepare("SELECT count(*) AS n FROM bets WHERE title LIKE 'Storm bet %'")
  .get().n;
const stormFull = db
  .prepare(
    "SELECT count(*) AS n FROM bets b WHERE title LIKE 'Storm bet %' AND status = 'active' AND (SELECT count(*) FROM bet_participants p WHERE p.bet_id = b.id) = 2",
  )
  .get().n;
const integrity = db.pragma("integrity_check", { simple: true });
db.close();
fs.rmSync(dir, { recursive: true, force: true });

const serverErrors = [...statuses]
  .filter(([s]) => s >= 500)
  .reduce((a, [, n]) => a + n, 0);
const ok = statuses.get(200) ?? 0;
const writerOps = writerResults.map((w) => w.out.trim()).join(", ");
console.info(
  `Join storm${WORKERS > 1 ? ` (${WORKERS} workers)` : ""}: ${BETS} bets × ${JOINERS} joins in ${seconds.toFixed(1)} s`,
);
console.info(
  `  answers: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(", ")}`,
);
console.info(`  direct writers: ${writerOps}`);
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
  integrity !== "ok" ||
  writerResults.some((w) => w.code !== 0);
console.info(failed ? "STORM FAILED" : "storm passed");
process.exit(failed ? 1 : 0);
