// `npm start`: the README's demo. Builds if there is no build, then runs the
// production server with DEMO_MODE=1 (demo payments, demo data seeded into
// an empty database). Migrations run inside the server at start-up.
import { spawnSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";

if (
  !existsSync("build/server/index.js") ||
  !existsSync("build/app-server.js")
) {
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, ["build/app-server.js"], {
  stdio: "inherit",
  env: {
    NODE_ENV: "production",
    DEMO_MODE: "1",
    PORT: "3000",
    // As in the Dockerfile: the V8 heap held to 192 MB (docs/decisions/0803).
    NODE_OPTIONS: "--max-old-space-size=192",
    ...process.env,
  },
});
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
