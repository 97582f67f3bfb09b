// `npm test`: typecheck, lint, build, unit + integration tests (Vitest, with
// the model and API suites again on PostgreSQL), the
// join storm and the crash-safety run (each on both engines), the graceful stop under load, the
// failover drill (PostgreSQL) and the restore drill (Litestream), then the browser tests (Playwright on Debian's Chromium). Stops at the first failure.
import { spawn, spawnSync } from "node:child_process";

const steps = [
  ["typecheck", ["npm", "run", "typecheck"]],
  ["lint", ["npm", "run", "lint"]],
  ["build", ["npm", "run", "build"]],
  // Unit and integration tests on SQLite, and the model and API suites
  // again on a throwaway PostgreSQL cluster that the run installs (Debian's
  // postgresql, when missing) and starts itself: one run, two projects.
  [
    "unit, integration, model and API tests on SQLite and PostgreSQL",
    ["npx", "vitest", "run"],
    { TEST_DATABASE: "both" },
  ],
  // Two lanes side by side: the SQLite crash run, mostly one process
  // starting and being killed (about one core's work on a two-core machine),
  // beside the PostgreSQL crash run and then the three join storms. Each
  // step's output is shown as it ends. What the storms check (one winner per
  // bet, no refused or failed answer, integrity) holds under any load; the
  // answer rates they print are then not a measurement: `npm run bench`
  // measures them on a machine doing nothing else.
  {
    together: [
      ["crash safety", ["node", "scripts/crash.mjs"]],
      [
        [
          "crash safety on PostgreSQL",
          [
            "node",
            "scripts/crash.mjs",
            "--engine=postgres",
            "--kills=25",
            "--rounds=6",
          ],
        ],
        // 250 bets × 20 joins: 5,000 joins prove one winner per bet as
        // well as 10,000 did, in half the time.
        ["join storm", ["node", "scripts/storm.mjs", "--bets=250"]],
        [
          "join storm, two workers",
          ["node", "scripts/storm.mjs", "--workers=2", "--bets=250"],
        ],
        // Fewer bets: PostgreSQL and the server share the machine's cores.
        [
          "join storm on PostgreSQL",
          ["node", "scripts/storm.mjs", "--engine=postgres", "--bets=200"],
        ],
      ],
    ],
  },
  ["graceful stop", ["node", "scripts/graceful-stop.mjs"]],
  // The primary SIGKILLed under keyed load, its synchronous standby
  // promoted: nothing acknowledged lost, nothing twice (about a minute).
  ["failover drill", ["node", "scripts/failover-drill.mjs"]],
  ["restore drill", ["node", "scripts/restore-drill.mjs"]],
  ["browser tests", ["npm", "run", "test:e2e"]],
];

const took = [];
const startedAll = Date.now();
const envFor = (env = {}) => ({ ...process.env, NODE_ENV: undefined, ...env });
const failed = (name, status) => {
  console.error(`✖ ${name} failed`);
  process.exit(status ?? 1);
};

/** Runs one step with its output kept, and prints the output when it ends. */
function buffered([name, [cmd, ...args], env], started) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: envFor(env) });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.on("error", (error) => (output += `${error}\n`));
    child.on("close", (status) => {
      console.info(`\n── ${name} ──\n${output}`);
      took.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
      resolve({ name, status });
    });
  });
}

/**
 * Runs lanes at the same time. A lane is one step, or a list of steps run
 * one after another (stopping at its first failure); each step's output is
 * printed when it ends, and its time counts from the group's start.
 */
async function together(lanes) {
  const started = Date.now();
  const asList = (lane) => (typeof lane[0] === "string" ? [lane] : lane);
  console.info(
    `\n▶ ${lanes
      .map((lane) =>
        asList(lane)
          .map(([name]) => name)
          .join(", then "),
      )
      .join(" + ")}`,
  );
  const results = await Promise.all(
    lanes.map(async (lane) => {
      for (const step of asList(lane)) {
        const result = await buffered(step, started);
        if (result.status !== 0) return result;
      }
      return { status: 0 };
    }),
  );
  for (const { name, status } of results)
    if (status !== 0) failed(name, status);
}

for (const step of steps) {
  if (step.together) {
    await together(step.together);
    continue;
  }
  const [name, [cmd, ...args], env] = step;
  console.info(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: "inherit", env: envFor(env) });
  took.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
  if (result.status !== 0) failed(name, result.status);
}
// Where the time went: npm test should stay within 35 minutes.
console.info(`\n${took.join("\n")}`);
console.info(
  `\n✔ all checks passed in ${Math.round((Date.now() - startedAll) / 60_000)} min`,
);
