// What blocks the browser's main thread while a hydrated page loads cold:
// a Chromium performance trace of each page, its long tasks taken apart and
// the functions that spent the most time in them, so that work on Total
// Blocking Time starts from a measurement (docs/performance.md).
//   node scripts/bench/trace-main-thread.mjs [--port=3600] [--cpu=4]
//     [--runs=1] [--pages=/,/my-bets,/bet,/create-bet] [--top=15]
//     [--lighthouse] [--base=http://localhost:3600] [--save=<dir>]
// (--base=http://localhost:3601 --pages=/ with the bare app of
// scripts/bench/bare-app built and served by hand, as bench.mjs does: the
// same load of a bare React Router page, for comparison)
// It serves the current build (`BENCH_BARE=1 npm run build`) on the demo
// seed (unless --base names a running server), signs in as alice, and loads
// each page cold in /usr/bin/chromium:
// - by default in a fresh browser context (no cache, no service worker) with
//   the CPU slowed --cpu times (Emulation.setCPUThrottlingRate);
// - with --lighthouse, through Lighthouse's mobile profile as `npm run bench`
//   runs it: the page loads at the machine's own speed and Lighthouse's
//   simulation multiplies what it observed by 4. Its TBT and the long tasks
//   it counted (simulated times) are printed, then the trace it recorded,
//   taken apart like the others (--cpu is then 1).
// A task is long from 12.5 × cpu ms: 50 ms on a 4× slower CPU, 12.5 ms as
// observed at full speed. "Blocking" sums the long tasks' time past that,
// scaled to the 4× CPU, from the navigation on: TBT counts only the time
// after the first paint and before the page goes quiet, so it is at most
// this. Timings move with the machine's load: compare runs made together.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  launchHeadlessChromium,
  PHONE,
  lighthouseMobileFlags,
} from "../lib/chromium.mjs";
import { signInAs, startServer } from "../lib/harness.mjs";
import { option } from "../lib/cli.mjs";

const LIGHTHOUSE = process.argv.includes("--lighthouse");
const CPU = LIGHTHOUSE ? 1 : Number(option("cpu", "4"));
const RUNS = Number(option("runs", "1"));
const TOP = Number(option("top", "15"));
const PORT = Number(option("port", "3600"));
const SAVE = option("save", null);
const LONG_MS = 12.5 * CPU;
const TO_4X = 4 / CPU;
const PAGES = option("pages", "/,/my-bets,/bet,/create-bet").split(",");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-trace-"));
let server = null;
let chrome = null;
let base = option("base", null);
const stop = () => {
  if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  chrome?.kill();
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on("exit", stop);
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));
if (!base) {
  server = startServer({
    dbPath: path.join(dir, "b.db"),
    port: PORT,
    env: { BENCH_BARE: "1" },
  });
  base = await server.ready;
}

// Signed in as alice. A server without /api/login (the bare React Router
// app of scripts/bench/bare-app, served by hand for a comparison) is loaded
// as it is.
const session = await signInAs(base);
if (!session) console.info("(not signed in: the server has no /api/login)");
const bets = session
  ? await (await fetch(`${base}/api/bets`)).json().catch(() => [])
  : [];
const betId = Array.isArray(bets) && bets[0] ? bets[0].id : 1;
const paths = PAGES.map((p) => (p === "/bet" ? `/bet/${betId}` : p));
const eq = session?.indexOf("=");
const sessionCookie = session && {
  name: session.slice(0, eq),
  value: session.slice(eq + 1),
  domain: "localhost",
  path: "/",
  httpOnly: true,
  secure: true,
  sameSite: "Lax",
};

chrome = await launchHeadlessChromium();
const { browser } = chrome;

const CATEGORIES = [
  "-*",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "disabled-by-default-devtools.timeline.frame",
  "toplevel",
  "v8.execute",
  "v8",
  "blink.user_timing",
  "loading",
  "latencyInfo",
  "disabled-by-default-v8.cpu_profiler",
];

function keep(p, events) {
  if (!SAVE) return;
  fs.mkdirSync(SAVE, { recursive: true });
  const name = `${p.replace(/\W+/g, "_") || "root"}-${Date.now()}.json`;
  fs.writeFileSync(path.join(SAVE, name), JSON.stringify(events));
}

/** Loads `p` cold in a fresh context, CPU slowed; answers the trace's events. */
async function traceLoad(p) {
  const context = await browser.createBrowserContext();
  if (sessionCookie) await context.setCookie(sessionCookie);
  const page = await context.newPage();
  await page.setViewport({ ...PHONE, isMobile: true, hasTouch: true });
  const cdp = await page.createCDPSession();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  const file = path.join(dir, "trace.json");
  await page.tracing.start({ path: file, categories: CATEGORIES });
  await page.goto(base + p, { waitUntil: "load" });
  // Hydration starts after the first paint, deferred work after that: the
  // page has settled once the network has been quiet for a while.
  await page
    .waitForNetworkIdle({ idleTime: 1000, timeout: 20_000 })
    .catch(() => {});
  await new Promise((r) => setTimeout(r, 1500 * CPU));
  await page.tracing.stop();
  await context.close();
  const trace = JSON.parse(fs.readFileSync(file, "utf8"));
  const events = trace.traceEvents ?? trace;
  keep(p, events);
  return { events };
}

/** Loads `p` through Lighthouse as the bench does; answers its trace and figures. */
let lighthouse = null;
async function lighthouseLoad(p) {
  lighthouse ??= (await import("lighthouse")).default;
  if (sessionCookie) await browser.setCookie(sessionCookie);
  // A first visit: no cookie saying the stylesheet is already held.
  await browser
    .defaultBrowserContext()
    .deleteMatchingCookies({ name: "fs_css", domain: "localhost" });
  const result = await lighthouse(base + p, lighthouseMobileFlags(chrome.port));
  const audits = result.lhr.audits;
  const events = result.artifacts.Trace.traceEvents;
  keep(p, events);
  return {
    events,
    lighthouse: {
      tbt: audits["total-blocking-time"].numericValue,
      fcp: audits["first-contentful-paint"].numericValue,
      // Lighthouse 12 no longer reports Time to Interactive.
      tti: audits.interactive?.numericValue,
      lcp: audits["largest-contentful-paint"].numericValue,
      longTasks: audits["long-tasks"].details?.items ?? [],
    },
  };
}

const TASKS = new Set([
  "RunTask",
  "ThreadControllerImpl::RunTask",
  "ThreadControllerImpl::DoWork",
]);
const ENTRY_POINTS = new Set([
  "EvaluateScript",
  "v8.evaluateModule",
  "v8.compileModule",
  "v8.compile",
  "FunctionCall",
  "TimerFire",
  "FireAnimationFrame",
  "FireIdleCallback",
  "EventDispatch",
  "UpdateLayoutTree",
  "Layout",
  "ParseHTML",
]);
const shortUrl = (u) =>
  !u
    ? "(native)"
    : u.startsWith(base)
      ? u.slice(base.length)
      : u.length > 60
        ? `${u.slice(0, 57)}...`
        : u;

function describe(e) {
  const d = e.args?.data ?? {};
  switch (e.name) {
    case "EvaluateScript":
    case "v8.compile":
      return `${e.name} ${shortUrl(d.url ?? e.args?.fileName)}:${d.lineNumber ?? ""}`;
    case "v8.evaluateModule":
    case "v8.compileModule":
      return `${e.name} ${shortUrl(e.args?.fileName ?? d.url)}`;
    case "FunctionCall":
      return `FunctionCall ${d.functionName || "(anonymous)"} ${shortUrl(d.url)}:${d.lineNumber ?? "?"}`;
    case "EventDispatch":
      return `EventDispatch ${d.type}`;
    default:
      return e.name;
  }
}

// Roughly how Lighthouse groups main-thread work (main-thread-tasks).
function group(name) {
  if (
    /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.parseOnBackground|v8\.produceCache|CacheScript)/.test(
      name,
    )
  )
    return "compile";
  if (/GC/.test(name)) return "gc";
  if (/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet)/.test(name))
    return "style";
  if (
    /^(Layout|UpdateLayerTree|Paint|PrePaint|Layerize|CompositeLayers|Commit|UpdateLayer)/.test(
      name,
    )
  )
    return "layout/paint";
  if (/^ParseHTML/.test(name)) return "parse HTML";
  if (
    /^(EvaluateScript|FunctionCall|v8\.|TimerFire|FireAnimationFrame|FireIdleCallback|EventDispatch|RunMicrotasks|V8\.Execute|XHR)/.test(
      name,
    )
  )
    return "script";
  return "other";
}

/**
 * The main thread's samples from the trace's CPU profile within [from, to]
 * (µs): [time, ms, "function url:line:column"], idle and "(program)" left out.
 */
function cpuSamples(events, pid, tid, from, to) {
  const nodes = new Map();
  const profiles = new Map();
  const samples = [];
  const chunks = events
    .filter(
      (e) =>
        (e.name === "Profile" || e.name === "ProfileChunk") && e.pid === pid,
    )
    .sort((a, b) => a.ts - b.ts);
  for (const e of chunks) {
    const id = e.id ?? e.id2?.local;
    if (e.name === "Profile") {
      profiles.set(id, { tid: e.tid, time: e.args.data.startTime });
      continue;
    }
    const prof = profiles.get(id);
    if (!prof || prof.tid !== tid) continue;
    const data = e.args.data.cpuProfile ?? {};
    for (const n of data.nodes ?? []) nodes.set(`${id}:${n.id}`, n);
    const ids = data.samples ?? [];
    const deltas = e.args.data.timeDeltas ?? [];
    for (let i = 0; i < ids.length; i++) {
      prof.time += deltas[i] ?? 0;
      // A sample stands for the time until the next one.
      const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
      if (prof.time < from || prof.time > to) continue;
      const f = nodes.get(`${id}:${ids[i]}`)?.callFrame;
      if (!f || ["(idle)", "(program)", "(root)"].includes(f.functionName))
        continue;
      const where = f.url
        ? `${shortUrl(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`
        : "(native)";
      samples.push([
        prof.time,
        ms,
        `${f.functionName || "(anonymous)"} ${where}`,
      ]);
    }
  }
  return samples;
}

const sumBy = (pairs) => {
  const out = new Map();
  for (const [k, v] of pairs) out.set(k, (out.get(k) ?? 0) + v);
  return [...out].sort((a, b) => b[1] - a[1]);
};

/** [kind, ms] pairs: the self time of a task's events, the task's own rest as "other". */
function selfTimeByKind(task, inside, ms) {
  const self = new Map(
    inside.filter((e) => !TASKS.has(e.name)).map((e) => [e, e.dur]),
  );
  const stack = [];
  let outermost = 0;
  for (const e of self.keys()) {
    while (stack.length && e.ts >= stack.at(-1).ts + stack.at(-1).dur)
      stack.pop();
    if (stack.length) self.set(stack.at(-1), self.get(stack.at(-1)) - e.dur);
    else outermost += e.dur;
    stack.push(e);
  }
  return [
    ...[...self].map(([e, us]) => [group(e.name), ms(us), e.name]),
    ["other", ms(task.dur - outermost), "(the task itself)"],
  ];
}

function analyse(events, url) {
  // The renderer that committed the page, and when its navigation started
  // (where the trace lacks that mark: when the browser first named the URL).
  const commit = events.find(
    (e) =>
      e.name === "FrameCommittedInBrowser" &&
      e.args?.data?.url === url &&
      e.args.data.isOutermostMainFrame !== false,
  );
  const pid = commit?.args.data.processId;
  const nav =
    events.find(
      (e) =>
        e.name === "navigationStart" && e.args?.data?.documentLoaderURL === url,
    ) ??
    events
      .filter((e) => e.args?.url === url || e.args?.data?.url === url)
      .sort((a, b) => a.ts - b.ts)[0];
  const tid = events.find(
    (e) =>
      e.ph === "M" &&
      e.name === "thread_name" &&
      e.pid === pid &&
      e.args.name === "CrRendererMain",
  )?.tid;
  const t0 = nav?.ts ?? 0;
  const at = (name) =>
    events.find((e) => e.name === name && e.pid === pid && e.ts >= t0);
  const marks = {
    FCP: at("firstContentfulPaint"),
    LCP: events
      .filter(
        (e) =>
          e.name === "largestContentfulPaint::Candidate" &&
          e.pid === pid &&
          e.ts >= t0,
      )
      .at(-1),
    load: at("loadEventEnd") ?? at("MarkLoad"),
  };
  const thread = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === "X" && e.ts >= t0)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Tasks within tasks (a nested run loop) count once, at the outside.
  const top = [];
  for (const t of thread.filter((e) => TASKS.has(e.name))) {
    const last = top.at(-1);
    if (!last || t.ts >= last.ts + last.dur) top.push(t);
  }
  const ms = (us) => us / 1000;
  const long = top.filter((t) => ms(t.dur) >= LONG_MS);
  const end = top.length ? top.at(-1).ts + top.at(-1).dur : t0;
  const samples = cpuSamples(events, pid, tid, t0, end);
  const detail = long.map((t) => {
    const inside = thread.filter(
      (e) =>
        e !== t &&
        !TASKS.has(e.name) &&
        e.ts >= t.ts &&
        e.ts + e.dur <= t.ts + t.dur,
    );
    // Self time of every event inside, by kind.
    const self = new Map(inside.map((e) => [e, e.dur]));
    const stack = [];
    for (const e of inside) {
      while (stack.length && e.ts >= stack.at(-1).ts + stack.at(-1).dur)
        stack.pop();
      if (stack.length) self.set(stack.at(-1), self.get(stack.at(-1)) - e.dur);
      stack.push(e);
    }
    const kinds = sumBy([...self].map(([e, us]) => [group(e.name), ms(us)]));
    // The outermost events, and script entry points anywhere below them.
    const children = [];
    let until = 0;
    for (const e of inside)
      if (e.ts >= until) {
        children.push(e);
        until = e.ts + e.dur;
      }
    const entries = inside.filter(
      (e) => ENTRY_POINTS.has(e.name) && !children.includes(e),
    );
    const fns = sumBy(
      samples
        .filter(([time]) => time >= t.ts && time <= t.ts + t.dur)
        .map(([, v, k]) => [k, v]),
    );
    return { t, kinds, children, entries, fns };
  });
  // The whole load's time by kind: every event's self time inside the
  // tasks, and a task's own time outside its events as "other".
  // Both lists are in time order and the tasks do not overlap: one walk.
  const wholeKinds = [];
  let next = 0;
  for (const t of top) {
    while (next < thread.length && thread[next].ts < t.ts) next++;
    const inside = [];
    for (; next < thread.length && thread[next].ts < t.ts + t.dur; next++) {
      const e = thread[next];
      if (e !== t && e.ts + e.dur <= t.ts + t.dur) inside.push(e);
    }
    wholeKinds.push(...selfTimeByKind(t, inside, ms));
  }
  return {
    t0,
    marks,
    top,
    long,
    kinds: sumBy(wholeKinds),
    events: sumBy(wholeKinds.map(([, v, name]) => [name, v])),
    blocking: long.reduce((s, t) => s + (ms(t.dur) - LONG_MS) * TO_4X, 0),
    busy: top.reduce((s, t) => s + ms(t.dur), 0),
    // After the first paint, where TBT is counted: all the tasks' time, and
    // the longest one.
    afterPaint: top
      .filter((t) => marks.FCP && t.ts >= marks.FCP.ts)
      .reduce((s, t) => s + ms(t.dur), 0),
    longestAfterPaint: Math.max(
      0,
      ...top
        .filter((t) => marks.FCP && t.ts >= marks.FCP.ts)
        .map((t) => ms(t.dur)),
    ),
    detail,
    samples,
  };
}

const f = (x) => (typeof x === "number" ? x.toFixed(1) : "—");
console.info(
  LIGHTHOUSE
    ? `Main thread during a cold load through Lighthouse (mobile, simulated 4× CPU), observed at full speed; long task ≥ ${LONG_MS} ms observed; "blocking" is the time past it, ×4. ${base}\n`
    : `Main thread during a cold load, CPU ${CPU}× slower, long task ≥ ${LONG_MS} ms; "blocking" is the time past it, ×${TO_4X} to a 4× CPU. ${base}\n`,
);
const summary = [];
for (const p of paths) {
  for (let run = 1; run <= RUNS; run++) {
    const load = LIGHTHOUSE ? await lighthouseLoad(p) : await traceLoad(p);
    const a = analyse(load.events, base + p);
    const rel = (e) => (e ? `${f((e.ts - a.t0) / 1000)} ms` : "—");
    console.info(
      `## ${p}${RUNS > 1 ? ` (run ${run})` : ""}: FCP ${rel(a.marks.FCP)}, LCP ${rel(a.marks.LCP)}, load ${rel(a.marks.load)}; ${a.top.length} tasks, ${f(a.busy)} ms busy; ${a.long.length} long, blocking ${f(a.blocking)} ms\n`,
    );
    const lh = load.lighthouse;
    if (lh) {
      console.info(
        `Lighthouse (simulated): TBT ${f(lh.tbt)} ms, FCP ${f(lh.fcp)} ms, TTI ${f(lh.tti)} ms, LCP ${f(lh.lcp)} ms; long tasks it counted:`,
      );
      for (const t of lh.longTasks)
        console.info(
          `  ${f(t.duration)} ms at ${f(t.startTime)} ms  ${shortUrl(t.url)}`,
        );
      console.info("");
    }
    for (const { t, kinds, children, entries, fns } of a.detail) {
      const by = kinds
        .filter(([, v]) => v >= 0.5)
        .map(([k, v]) => `${k} ${f(v)}`)
        .join(", ");
      console.info(
        `- task at ${f((t.ts - a.t0) / 1000)} ms, ${f(t.dur / 1000)} ms (${by})`,
      );
      for (const c of children.filter((c) => c.dur >= 1000))
        console.info(`    ${f(c.dur / 1000)} ms  ${describe(c)}`);
      for (const e of entries.filter((e) => e.dur >= 2000).slice(0, 12))
        console.info(`      · ${f(e.dur / 1000)} ms  ${describe(e)}`);
      if (fns.length)
        console.info(
          `    self time: ${fns
            .slice(0, 6)
            .map(([k, v]) => `${k} ${f(v)}`)
            .join("; ")}`,
        );
    }
    const fns = sumBy(a.samples.map(([, v, k]) => [k, v]));
    const total = fns.reduce((s, [, v]) => s + v, 0);
    if (!fns.length) {
      // Lighthouse records no CPU profile: entry points only.
      console.info("");
      summary.push({ p, a, tbt: lh?.tbt });
      continue;
    }
    console.info(
      `Whole load by kind: ${a.kinds
        .filter(([, v]) => v >= 0.5)
        .map(([k, v]) => `${k} ${f(v)}`)
        .join(", ")}`,
    );
    console.info(
      `Whole load by event: ${a.events
        .slice(0, 12)
        .map(([k, v]) => `${k} ${f(v)}`)
        .join(", ")}`,
    );
    console.info(`\nTop self time, whole load (${f(total)} ms sampled):`);
    for (const [k, v] of fns.slice(0, TOP))
      console.info(`  ${f(v).padStart(7)} ms  ${k}`);
    console.info("By file:");
    const byFile = sumBy(
      a.samples.map(([, v, k]) => [
        k.replace(/^.* (\S+?)(:\d+:\d+)?$/, "$1"),
        v,
      ]),
    );
    for (const [k, v] of byFile.slice(0, 8))
      console.info(`  ${f(v).padStart(7)} ms  ${k}`);
    console.info("");
    summary.push({ p, a, tbt: lh?.tbt });
  }
}
console.info(
  `| page | long tasks | blocking (4× ms) | busy | busy after the first paint | its longest task |${LIGHTHOUSE ? " Lighthouse TBT |" : ""}`,
);
console.info(`|---|---|---|---|---|---|${LIGHTHOUSE ? "---|" : ""}`);
for (const { p, a, tbt } of summary)
  console.info(
    `| ${p} | ${a.long.length} | ${f(a.blocking)} | ${f(a.busy)} ms | ${f(a.afterPaint)} ms | ${f(a.longestAfterPaint)} ms |${LIGHTHOUSE ? ` ${f(tbt)} ms |` : ""}`,
  );
await chrome.close();
// The server's pipes would keep this process alive: end it (and the server).
process.exit(0);
