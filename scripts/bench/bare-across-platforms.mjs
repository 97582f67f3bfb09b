// The yardstick beside itself: the bare React Router app (scripts/bench/
// bare-app) as one checkout builds it on its Node, beside the same app as
// another checkout builds it on another Node. The throughput goal is a ratio
// to this app, so when a platform upgrade makes it cheaper, every page's
// ratio grows though the page did no more work; this says by how much
// (docs/decisions/1167-the-yardstick-moved-with-node-24.md).
//   node scripts/bench/bare-across-platforms.mjs --then=<checkout>
//     [--then-node=<node>] [--now=<checkout>] [--now-node=<node>]
//     [--turns=6] [--duration=5]
// Each checkout needs its node_modules installed for its own Node. Both apps
// get the same load as the bench's bare app (16 connections on `/`, a
// browser's Accept-Encoding) in paired turns, the order swapped each turn;
// it prints CPU per request of each and the median ratio now/then.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { buildBareApp } from "../lib/bare-app.mjs";
import { option } from "../lib/cli.mjs";
import { cpuMs } from "../lib/process-stats.mjs";
import { median } from "../lib/stats.mjs";

if (!option("then")) throw new Error("--then=<checkout> is required");
const then = {
  name: "then",
  checkout: path.resolve(option("then")),
  node: option("then-node", process.execPath),
  port: 3811,
};
const now = {
  name: "now",
  checkout: path.resolve(option("now", ".")),
  node: option("now-node", process.execPath),
  port: 3812,
};
const TURNS = Number(option("turns", "6"));
const DURATION = Number(option("duration", "5"));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-bare-"));
const servers = [];
process.on("exit", () => {
  for (const child of servers) child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

function serve(app) {
  const into = path.join(dir, app.name);
  buildBareApp({ into, checkout: app.checkout, node: app.node });
  const child = spawn(app.node, ["server.mjs"], {
    cwd: into,
    // As the bench runs it (and the Dockerfile runs Fairshake).
    env: {
      ...process.env,
      NODE_ENV: "production",
      NODE_OPTIONS: "--max-old-space-size=192 --max-semi-space-size=8",
      MALLOC_ARENA_MAX: "1",
      PORT: String(app.port),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  servers.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c) => {
      if (String(c).includes("listening")) resolve(child.pid);
    });
    child.on("exit", () => reject(new Error(`${app.name}'s bare app exited`)));
  });
}

async function cpuPerRequest(app, pid, duration) {
  const before = cpuMs(pid);
  const result = await autocannon({
    url: `http://localhost:${app.port}/`,
    connections: 16,
    duration,
    headers: { "Accept-Encoding": "gzip, deflate, br, zstd" },
  });
  return (cpuMs(pid) - before) / Math.max(1, result.requests.total);
}

const pids = { then: await serve(then), now: await serve(now) };
for (const app of [then, now]) await cpuPerRequest(app, pids[app.name], 2); // warm-up
const ratios = [];
console.info(`then: ${then.checkout} on ${then.node}`);
console.info(`now:  ${now.checkout} on ${now.node}`);
for (let turn = 0; turn < TURNS; turn++) {
  const ms = {};
  for (const app of turn % 2 ? [now, then] : [then, now])
    ms[app.name] = await cpuPerRequest(app, pids[app.name], DURATION);
  ratios.push(ms.now / ms.then);
  console.info(
    `turn ${turn + 1}: then ${ms.then.toFixed(2)} ms, now ${ms.now.toFixed(2)} ms per request, now/then ${(ms.now / ms.then).toFixed(2)}`,
  );
}
console.info(`median now/then: ${median(ratios).toFixed(2)}`);
process.exit(0);
