// Who spends the main thread's time while a page loads cold: a V8 CPU
// profile of the load (not a trace), each function's inclusive time (its
// own and its callees'), and who called the functions you name. The trace
// tool (trace-main-thread.mjs) says which task is long and what it ran
// itself; this says which call inside it to look at — it found that
// React Router's route matching made up most of hydration's one long task
// (docs/decisions/archive/1057-the-browser-knows-the-pages-only.md).
//   node scripts/bench/profile-load.mjs [--page=/bet] [--runs=5] [--cpu=4]
//     [--top=40] [--callers=<regex of function names>] [--port=3600]
// It serves the current build on the demo seed, signs in as alice and loads
// the page in a fresh browser context each run (no cache, no service
// worker) with the CPU slowed --cpu times, sampling every 100 µs from the
// navigation until the page has been quiet for a while. Times are per load
// (the sum over the runs ÷ runs), on the slowed CPU. Build without
// minifying to read the names: `minify: false` in vite.config.ts's `build`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launchHeadlessChromium, PHONE } from "../lib/chromium.mjs";
import { signInAs, startServer } from "../lib/harness.mjs";
import { option } from "../lib/cli.mjs";

const PAGE = option("page", "/bet");
const RUNS = Number(option("runs", "5"));
const CPU = Number(option("cpu", "4"));
const TOP = Number(option("top", "40"));
const CALLERS = new RegExp(
  option("callers", "^(createHydratedRouter|matchRoutes|flattenRoutes)$"),
);
const IDLE = new Set(["(idle)", "(program)", "(root)"]);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-profile-"));
let chrome = null;
const server = startServer({ dbPath: path.join(dir, "p.db"), port: 0 });
process.on("exit", () => {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
  chrome?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});
const base = await server.ready;

const [name, value] = (await signInAs(base)).split(/=(.*)/);
const bets = await (await fetch(`${base}/api/bets`)).json();
const page = PAGE === "/bet" ? `/bet/${bets[0].id}` : PAGE;

/** One cold load's CPU profile (the DevTools protocol's `Profiler`). */
async function profileLoad() {
  const context = await chrome.browser.createBrowserContext();
  await context.setCookie({
    name,
    value,
    domain: "localhost",
    path: "/",
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
  });
  const tab = await context.newPage();
  await tab.setViewport({ ...PHONE, isMobile: true, hasTouch: true });
  const cdp = await tab.createCDPSession();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  await tab.goto(base + page, { waitUntil: "load" });
  // Hydration and the work deferred after it, as in trace-main-thread.mjs.
  await tab
    .waitForNetworkIdle({ idleTime: 1000, timeout: 20_000 })
    .catch(() => {});
  await new Promise((r) => setTimeout(r, 1000 * CPU));
  const { profile } = await cdp.send("Profiler.stop");
  await context.close();
  return profile;
}

const label = ({ callFrame: f }) =>
  `${f.functionName || "(anonymous)"} ${f.url.split("/").pop() || "(native)"}:${f.lineNumber + 1}`;

const inclusive = new Map();
const callers = new Map();
let sampled = 0;
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);

chrome = await launchHeadlessChromium();
for (let run = 0; run < RUNS; run++) {
  const profile = await profileLoad();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes)
    for (const child of n.children ?? []) parent.set(child, n.id);
  profile.samples.forEach((id, i) => {
    if (IDLE.has(nodes.get(id).callFrame.functionName)) return;
    // A sample stands for the time until the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    sampled += ms;
    // Each function once per sample, however deep it recurses.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const node = nodes.get(at);
      const key = label(node);
      if (!seen.has(key)) add(inclusive, key, ms);
      seen.add(key);
      const up = parent.get(at);
      if (up !== undefined && CALLERS.test(node.callFrame.functionName))
        add(callers, `${key}  ←  ${label(nodes.get(up))}`, ms);
    }
  });
}
await chrome.close();

const perLoad = (ms) => (ms / RUNS).toFixed(1).padStart(7);
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
console.info(
  `${page}: ${perLoad(sampled).trim()} ms of script, style and layout sampled per cold load, CPU ${CPU}× slower, ${RUNS} loads\n`,
);
console.info("Inclusive time per load (the function and all it called):");
for (const [key, ms] of top(inclusive, TOP))
  if (!IDLE.has(key.split(" ")[0])) console.info(`  ${perLoad(ms)} ms  ${key}`);
console.info(`\nCallers of ${CALLERS}:`);
for (const [key, ms] of top(callers, TOP))
  console.info(`  ${perLoad(ms)} ms  ${key}`);
process.exit(0);
