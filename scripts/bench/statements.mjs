// What each SQLite statement costs inside a request to a page: the built
// server on the demo seed, every better-sqlite3 call timed where it runs
// (statement-timer.mjs, preloaded), a warm-up left out, then µs per call and
// per request for each statement. A CPU profile puts all of them in one
// native frame; this found SQLite 3.54.1 running the dashboard's and the
// session's statements four to five times slower than 3.53
// (docs/decisions/1168-sqlite-3-54-is-slower-on-our-statements.md).
//   node scripts/bench/statements.mjs [--page=/] [--requests=500]
//     [--connections=16] [--top=12] [--width=110]
// Signed in as alice, a returning visitor. Figures move with the machine:
// compare builds or package versions in one sitting, never across days.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startServer } from "../lib/harness.mjs";
import { option } from "../lib/cli.mjs";
import {
  pageToMeasure,
  returningVisitorCookie,
} from "../lib/returning-visitor.mjs";

const PAGE = option("page", "/");
const REQUESTS = Number(option("requests", "500"));
const CONNECTIONS = Number(option("connections", "16"));
const TOP = Number(option("top", "12"));
const WIDTH = Number(option("width", "110"));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-statements-"));
const timesFile = path.join(dir, "times.json");
const timer = new URL("./statement-timer.mjs", import.meta.url).href;
const server = startServer({
  dbPath: path.join(dir, "s.db"),
  env: { NODE_OPTIONS: `--import=${timer}`, STATEMENT_TIMES_FILE: timesFile },
});
process.on("exit", () => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});
const base = await server.ready;
const cookie = await returningVisitorCookie(base);
const page = await pageToMeasure(base, PAGE);

const load = (amount) =>
  autocannon({
    url: base + page,
    connections: CONNECTIONS,
    amount,
    headers: { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br, zstd" },
  });
// The timer writes twice a second: wait for a write after the load.
const totals = async () => {
  await new Promise((resolve) => setTimeout(resolve, 1200));
  return JSON.parse(fs.readFileSync(timesFile, "utf8"));
};

await load(Math.max(100, REQUESTS / 2)); // JIT and statement caches warm
const before = await totals();
const result = await load(REQUESTS);
const after = await totals();
if (result.non2xx) console.warn(`${result.non2xx} answers were not 2xx`);
const requests = result.requests.total;

const rows = Object.entries(after)
  .map(([sql, { calls, ns }]) => ({
    sql,
    calls: calls - (before[sql]?.calls ?? 0),
    ns: ns - (before[sql]?.ns ?? 0),
  }))
  .filter((r) => r.calls > 0)
  .sort((a, b) => b.ns - a.ns);
const all = rows.reduce((sum, r) => sum + r.ns, 0);
console.info(
  `${page}: ${requests} requests at ${CONNECTIONS} connections; ` +
    `${(all / 1000 / requests).toFixed(0)} µs per request in statements\n`,
);
console.info("µs/req  µs/call  calls/req  statement");
for (const r of rows.slice(0, TOP)) {
  console.info(
    [
      (r.ns / 1000 / requests).toFixed(0).padStart(6),
      (r.ns / 1000 / r.calls).toFixed(1).padStart(8),
      (r.calls / requests).toFixed(2).padStart(10),
      ` ${r.sql.replace(/\s+/g, " ").slice(0, WIDTH)}`,
    ].join(" "),
  );
}
process.exit(0);
