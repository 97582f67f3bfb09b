// `npm start`: the README's demo. Builds when there is no build or when any
// source, the lock file or a build setting is newer than it (so a `git pull`
// never serves yesterday's code), then runs the production launcher with
// DEMO_MODE=1 (demo payments, demo data seeded into an empty database).
// Migrations run inside the server at start-up.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const OUTPUTS = [
  "build/server/index.js",
  "build/app-server.js",
  "build/server.js",
];
const SOURCES = [
  "app",
  "server",
  "public",
  "server.ts",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "scripts/build-server.mjs",
];

/** The newest modification time under `p` (a file or a folder). */
function newest(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs; // a deleted file shows as a newer folder
  for (const entry of fs.readdirSync(p))
    max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

function buildIsStale() {
  const built = OUTPUTS.map((f) =>
    fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0,
  );
  if (built.some((t) => t === 0)) return "there is no build";
  const oldest = Math.min(...built);
  const changed = SOURCES.find((s) => newest(s) > oldest);
  return changed ? `${changed} changed since the last build` : null;
}

const reason = buildIsStale();
if (reason) {
  console.info(`Building: ${reason}.`);
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, ["build/server.js"], {
  stdio: "inherit",
  env: {
    NODE_ENV: "production",
    DEMO_MODE: "1",
    PORT: "3000",
    // As in the Dockerfile: the V8 heap held to 192 MB (docs/decisions/archive/0803-bounded-memory.md),
    // its young generation to 8 MB semi-spaces (docs/decisions/archive/0843-young-generation-8-mb.md).
    NODE_OPTIONS: "--max-old-space-size=192 --max-semi-space-size=8",
    // One glibc malloc arena, as in the Dockerfile (docs/decisions/archive/0804-one-malloc-arena.md).
    MALLOC_ARENA_MAX: "1",
    ...process.env,
  },
});
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
