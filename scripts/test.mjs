// `npm test`: typecheck, lint, build, unit + integration tests (Vitest, then
// the model and API suites again on PostgreSQL), the
// join storm and the crash-safety run (each on both engines), the graceful stop under load and the
// restore drill (Litestream), then the browser tests (Playwright on Debian's Chromium). Stops at the first failure.
import { spawnSync } from "node:child_process";

const steps = [
  ["typecheck", ["npm", "run", "typecheck"]],
  ["lint", ["npm", "run", "lint"]],
  ["build", ["npm", "run", "build"]],
  ["unit and integration tests", ["npx", "vitest", "run"]],
  // The model and API suites again on a throwaway PostgreSQL cluster that
  // the run installs (Debian's postgresql, when missing) and starts itself.
  [
    "model and API tests on PostgreSQL",
    ["npx", "vitest", "run"],
    { TEST_DATABASE: "postgres" },
  ],
  ["join storm", ["node", "scripts/storm.mjs"]],
  ["join storm, two workers", ["node", "scripts/storm.mjs", "--workers=2"]],
  // Fewer bets: PostgreSQL and the server share the machine's two cores.
  [
    "join storm on PostgreSQL",
    ["node", "scripts/storm.mjs", "--engine=postgres", "--bets=200"],
  ],
  ["crash safety", ["node", "scripts/crash.mjs"]],
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
  ["graceful stop", ["node", "scripts/graceful-stop.mjs"]],
  ["restore drill", ["node", "scripts/restore-drill.mjs"]],
  ["browser tests", ["npm", "run", "test:e2e"]],
];

const took = [];
const startedAll = Date.now();
for (const [name, [cmd, ...args], env = {}] of steps) {
  console.info(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: undefined, ...env },
  });
  took.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
  if (result.status !== 0) {
    console.error(`✖ ${name} failed`);
    process.exit(result.status ?? 1);
  }
}
// Where the time went: npm test should stay within 35 minutes.
console.info(`\n${took.join("\n")}`);
console.info(
  `\n✔ all checks passed in ${Math.round((Date.now() - startedAll) / 60_000)} min`,
);
