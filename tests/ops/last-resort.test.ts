// The last resort (server/lifecycle.ts): a promise rejected that nobody
// awaited is a bug that leaves the process in a state nobody knows. The
// process neither dies on the spot (cutting every request and stream) nor
// goes on as if nothing happened: it logs the error, finishes what it was
// answering, and exits 1, so the cluster's primary (or Fly) starts a fresh one.
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  const preload = path.resolve("tests/support/preloads/stray-rejection.mjs");
  server = await startServer({ NODE_OPTIONS: `--import=${preload}` });
});
afterAll(() => server?.stop());

it("an unhandled rejection is logged, and the process stops gracefully with exit code 1", async () => {
  for (let waited = 0; server.running() && waited < 20_000; waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  expect(server.running(), server.output()).toBe(false);
  expect(server.exitCode()).toBe(1);
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
  const fatal = lines.find((line) => line.level === 60);
  expect(fatal?.msg).toBe("unhandled rejection: stopping");
  expect(JSON.stringify(fatal)).toContain("a promise nobody awaited");
  expect(lines.at(-1)?.msg).toBe("stopped");
});
