// The production build on a fresh database for the browser tests: demo mode
// (demo payments and the demo seed), rate limits off for many sign-ups.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-e2e-"));
const child = spawn(process.execPath, ["build/app-server.js"], {
  stdio: "inherit",
  env: {
    ...process.env,
    NODE_ENV: "production",
    DEMO_MODE: "1",
    RATE_LIMITS: "off",
    SESSION_SECRET: "e2e-secret",
    PORT: process.env.E2E_PORT ?? "3210",
    DATABASE_PATH: path.join(dir, "e2e.db"),
  },
});
const stop = () => {
  child.kill("SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
child.on("exit", (code) => process.exit(code ?? 0));
