// A graceful stop ends the process even when whoever read its output has
// gone (docs/operations.md#graceful-stop). A script that starts the server,
// sends SIGTERM and exits at once leaves the server's stdout with no reader:
// pino's synchronous flush at exit then met EPIPE and retried it forever,
// so the server never exited and kept listening (server/logging.ts,
// flushLogs). The launcher below is that script.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-reader-"));
let serverPid = 0;

const LAUNCHER = `
import { spawn } from "node:child_process";
const server = spawn(process.execPath, ["build/app-server.js"], {
  stdio: ["ignore", "pipe", "pipe"],
});
let out = "";
server.stdout.on("data", (chunk) => {
  out += chunk;
  if (!/listening on/.test(out)) return;
  console.log(server.pid);
  server.kill("SIGTERM");
  process.exit(0);
});
server.on("exit", (code) => process.exit(10 + (code ?? 0)));
`;

/** Running: its process exists and has not exited (a zombie has). */
const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

afterAll(() => {
  if (serverPid && alive(serverPid)) process.kill(serverPid, "SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

it("a server told to stop exits though its output's reader has gone", async () => {
  const launched = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", LAUNCHER],
    {
      encoding: "utf8",
      timeout: 60_000,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: "0",
        DATABASE_PATH: path.join(dir, "reader.db"),
        DEMO_MODE: "1",
        SESSION_SECRET: "reader-secret",
      },
    },
  );
  expect(launched.status, launched.stderr).toBe(0);
  serverPid = Number(launched.stdout.trim());
  expect(serverPid).toBeGreaterThan(0);
  // The stop itself takes well under a second here; the grace period is 10 s.
  const until = Date.now() + 20_000;
  while (alive(serverPid) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 100));
  expect(alive(serverPid)).toBe(false);
});
