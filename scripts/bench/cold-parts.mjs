// What a few of a page's parts cost with the processor's caches warm and
// with them cold. A part timed in a loop runs from L1 and L2; inside a
// request it runs after the rest of the request has filled those caches with
// other code and data (React, React Router, Express, the young generation the
// request allocates into), so it pays to bring its own code and data back.
// This times each part both ways on this machine: in a loop, and each call
// after reading a buffer larger than L2. It found a page's parts costing
// several times their loop figure in the server
// (docs/decisions/1170-a-request-runs-on-cold-caches.md).
//   node scripts/bench/cold-parts.mjs [--calls=2000] [--flush-mb=8]
// It serves the current build (npm run build first) on the demo seed for a
// page's HTML and a seeded database, then stops it: the parts run here.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { startServer } from "../lib/harness.mjs";
import { returningVisitorCookie } from "../lib/returning-visitor.mjs";
import { option } from "../lib/cli.mjs";

const CALLS = Number(option("calls", "2000"));
const FLUSH_MB = Number(option("flush-mb", "8"));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-cold-"));
const dbPath = path.join(dir, "c.db");
const server = startServer({ dbPath });
process.on("exit", () => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});
const base = await server.ready;
const cookie = await returningVisitorCookie(base);
const html = await (await fetch(`${base}/`, { headers: { cookie } })).text();
server.child.kill("SIGKILL");
await new Promise((resolve) => server.child.once("exit", resolve));

const Database = createRequire(path.join(process.cwd(), "package.json"))(
  "better-sqlite3",
);
const reader = new Database(dbPath, { readonly: true });
const newestLiveEvent = reader
  .prepare('select "id" from "live_events" order by "id" desc limit ?')
  .raw();
const sessionLike = Buffer.from(JSON.stringify({ token: "x".repeat(43) }))
  .toString("base64")
  .replace(/=+$/, "");
const secret = crypto.randomBytes(32).toString("hex");

const parts = [
  ["SQLite: the newest live event (1 row)", () => newestLiveEvent.all(1)],
  [
    "HMAC-SHA256 of a session cookie",
    () => crypto.createHmac("sha256", secret).update(sessionLike).digest(),
  ],
  [
    `gzip level 3 of / (${(html.length / 1024).toFixed(1)} KB)`,
    () => zlib.gzipSync(html, { level: 3 }),
  ],
  [
    "JSON.stringify + parse of /'s HTML",
    () => JSON.parse(JSON.stringify(html)),
  ],
];

// Read (and write) every cache line of a buffer past L2's size.
const flush = new Float64Array((FLUSH_MB * 1024 * 1024) / 8);
function evictCaches() {
  let sum = 0;
  for (let i = 0; i < flush.length; i += 8) sum += flush[i]++;
  return sum;
}

function time(run, cold) {
  for (let i = 0; i < 200; i++) run();
  let ns = 0;
  for (let i = 0; i < CALLS; i++) {
    if (cold) evictCaches();
    const start = process.hrtime.bigint();
    run();
    ns += Number(process.hrtime.bigint() - start);
  }
  return ns / CALLS / 1000;
}

console.info(
  `${CALLS} calls each; cold: after reading ${FLUSH_MB} MB (this machine's L2: see lscpu)\n`,
);
console.info("   warm µs    cold µs   × warm  part");
for (const [name, run] of parts) {
  const warm = time(run, false);
  const cold = time(run, true);
  console.info(
    `${warm.toFixed(1).padStart(10)} ${cold.toFixed(1).padStart(10)} ${(cold / warm).toFixed(1).padStart(8)}  ${name}`,
  );
}
reader.close();
process.exit(0);
