// What one request to a page costs the server, and in what: a V8 CPU
// profile of the built server under load, taken through its inspector only
// while the measured requests run (start-up, the seed and the warm-up left
// out), and each part's time divided by the requests answered. `npm run
// bench` says whether a page is within its budget; this says where its
// time goes. It found gzip at 10–12 % of a signed-in page
// (docs/decisions/archive/1058-gzip-level-by-page-size.md).
//   node scripts/bench/profile-server.mjs [--page=/bet] [--seconds=10]
//     [--connections=16] [--top=30] [--inclusive=<comma-separated names>]
//     [--save=<file.cpuprofile>]
// It serves the current build (npm run build first) on the demo seed,
// signs in as alice with the cookies a returning visitor's browser sends
// (session, stylesheet, time zone), and asks as a browser does (gzip).
// Figures are µs per request, on this machine: compare pages and builds
// in one sitting, never with another day's numbers.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import WebSocket from "ws";
import { startServer } from "../lib/harness.mjs";
import {
  pageToMeasure,
  returningVisitorCookie,
} from "../lib/returning-visitor.mjs";
import { option } from "../lib/cli.mjs";

const PAGE = option("page", "/bet");
const SECONDS = Number(option("seconds", "10"));
const CONNECTIONS = Number(option("connections", "16"));
const TOP = Number(option("top", "30"));
const INCLUSIVE = option(
  "inclusive",
  "encodeDocument,matchServerRoutes,createStaticRouter,LinkWithRef,NavLinkWithRef,renderToPipeableStream",
)
  .split(",")
  .filter(Boolean);
const SAVE = option("save", "");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-profile-"));
const server = startServer({
  dbPath: path.join(dir, "p.db"),
  // The inspector on a free port; its address is read from the log.
  env: {
    NODE_OPTIONS:
      "--inspect=127.0.0.1:0 --max-old-space-size=192 --max-semi-space-size=8",
    MALLOC_ARENA_MAX: "1",
  },
});
process.on("exit", () => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});
const base = await server.ready;

const cookie = await returningVisitorCookie(base);
const page = await pageToMeasure(base, PAGE);

// The DevTools protocol over the inspector's WebSocket.
const inspectorUrl = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(server.log())?.[0];
if (!inspectorUrl) throw new Error("the server's inspector did not say where");
const socket = new WebSocket(inspectorUrl);
await new Promise((resolve, reject) => {
  socket.once("open", resolve);
  socket.once("error", reject);
});
let lastId = 0;
const waiting = new Map();
socket.on("message", (raw) => {
  const message = JSON.parse(String(raw));
  waiting.get(message.id)?.(message.result);
  waiting.delete(message.id);
});
const send = (method, params = {}) =>
  new Promise((resolve) => {
    const id = ++lastId;
    waiting.set(id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });

const load = (seconds) =>
  autocannon({
    url: base + page,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br, zstd" },
  });
await load(3); // JIT and statement caches warm, as in a server's long life
await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 200 });
await send("Profiler.start");
const result = await load(SECONDS);
const { profile } = await send("Profiler.stop");
socket.close();
if (SAVE) fs.writeFileSync(SAVE, JSON.stringify(profile));
const requests = result.requests.total;
if (result.non2xx) console.warn(`${result.non2xx} answers were not 2xx`);

// Each node's own time, then grouped by package or file.
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const n of profile.nodes)
  for (const child of n.children ?? []) parentOf.set(child, n.id);
const own = new Map();
profile.samples.forEach((id, i) =>
  own.set(id, (own.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);
const where = ({ url, functionName }) => {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith("node:")) return "node";
  return `app ${path.basename(url).replace(/-[\w-]{8}\.js$/, "")}`;
};
const perRequest = (us) => (us / requests).toFixed(0).padStart(6);
const sum = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
const byPlace = new Map();
const byFunction = new Map();
for (const [id, us] of own) {
  const frame = nodes.get(id).callFrame;
  sum(byPlace, where(frame), us);
  sum(
    byFunction,
    `${frame.functionName || "(anonymous)"} ${where(frame)}:${frame.lineNumber + 1}`,
    us,
  );
}
byPlace.delete("(idle)");
byFunction.delete("(idle) (idle):0");
const busy = [...byPlace.values()].reduce((a, b) => a + b, 0);
const top = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([name, us]) => `${perRequest(us)}  ${name}`)
    .join("\n");

console.info(
  `${page}: ${requests} requests in ${SECONDS} s at ${CONNECTIONS} connections; busy ${perRequest(busy).trim()} µs per request\n`,
);
console.info(`µs per request, by where the time was spent:\n${top(byPlace)}\n`);
console.info(
  `µs per request, by function (its own time):\n${top(byFunction)}\n`,
);
// A function with all it called (synchronously: an await ends the count).
const inclusive = INCLUSIVE.map((name) => {
  let us = 0;
  for (const [id, t] of own)
    for (let n = id; n !== undefined; n = parentOf.get(n))
      if (nodes.get(n).callFrame.functionName === name) {
        us += t;
        break;
      }
  return `${perRequest(us)}  ${name}`;
});
console.info(`µs per request, with all it called:\n${inclusive.join("\n")}`);

server.child.kill("SIGTERM");
await new Promise((resolve) => server.child.once("exit", resolve));
