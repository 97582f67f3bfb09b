// Seen from outside (docs/operations.md#logs-and-metrics), against the built server: a journey
// (register, login, bet, settle, demo card payment) with the log captured,
// then the log is searched for every secret the journey used; every request
// has one JSON line with its id (== X-Request-Id), method, route pattern,
// status and duration; metrics answer on METRICS_PORT and never on the
// public port.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, uniqueName } from "../support/server";

let child: ChildProcess;
let output = "";
let base = "";
let metricsBase = "";
let dir = "";

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-obs-"));
  child = spawn(process.execPath, ["build/app-server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      METRICS_PORT: "0",
      DATABASE_PATH: path.join(dir, "obs.db"),
      RATE_LIMITS: "off",
      DEMO_MODE: "1",
      SESSION_SECRET: "obs-secret",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  for (let i = 0; i < 200 && !(base && metricsBase); i++) {
    base = /listening on (http:\/\/localhost:\d+)/.exec(output)?.[1] ?? "";
    metricsBase =
      /metrics on (http:\/\/[^\s/]+:\d+)\/metrics/.exec(output)?.[1] ?? "";
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!base || !metricsBase)
    throw new Error(`server did not start:\n${output}`);
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

type Line = {
  requestId?: string;
  req?: { method?: string; route?: string };
  res?: { status?: number };
  durationMs?: number;
  msg?: string;
};
function logLines(): Line[] {
  return output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Line);
}

describe("request logs", () => {
  it("carry id, method, route pattern, status and duration, and no secret of a whole journey", async () => {
    const password = "Sup3rSecret!pass";
    const loserName = uniqueName("obsl");
    const loserEmail = `${loserName}.mailbox@example.org`;
    const winnerName = uniqueName("obsw");
    const winnerEmail = `${winnerName}.inbox@example.net`;

    const loser = new Client(base);
    const reg = await loser.post("/api/register", {
      username: loserName,
      email: loserEmail,
      password,
    });
    expect(reg.status, reg.text).toBe(201);
    const winner = new Client(base);
    expect(
      (
        await winner.post("/api/register", {
          username: winnerName,
          email: winnerEmail,
          password,
        })
      ).status,
    ).toBe(201);
    // Sign in again: a fresh session cookie, and the password sent once more.
    const login = await new Client(base).post("/api/login", {
      username: loserName,
      password,
    });
    expect(login.status).toBe(200);
    const bet = await loser.post("/api/bets", {
      title: "Observed bet",
      description: "Who wins",
      amount: 25,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      visibility: "private",
    });
    expect(bet.status, bet.text).toBe(201);
    const betId = bet.data.id as number;
    const code = bet.data.code as string;
    expect((await winner.get(`/api/bets/code/${code}`)).status).toBe(200);
    const join = await winner.post(`/api/bets/${betId}/join`, {});
    expect(join.status, join.text).toBe(200);
    expect(
      (
        await winner.post(`/api/bets/${betId}/propose-settlement`, {
          winnerId: (await winner.get("/api/user")).data.id,
        })
      ).status,
    ).toBe(201);
    expect((await loser.post(`/api/settlements/${betId}/approve`)).status).toBe(
      200,
    );
    const intent = await loser.post("/api/create-payment-intent", { betId });
    expect(intent.status, intent.text).toBe(200);
    const card = "4242 4242 4242 4242";
    const confirm = await loser.post("/api/payments/demo/confirm", {
      paymentIntentId: intent.data.paymentIntentId,
      cardNumber: card,
      expiry: "12/40",
      cvc: "987",
    });
    expect(confirm.status, confirm.text).toBe(200);
    const record = await loser.post(`/api/bets/${betId}/record-payment`, {
      paymentIntentId: intent.data.paymentIntentId,
      amount: 25,
    });
    expect(record.status, record.text).toBe(200);

    await new Promise((r) => setTimeout(r, 200)); // the last lines reach the pipe
    const secrets = [
      password,
      loserEmail,
      winnerEmail,
      card,
      card.replaceAll(" ", ""),
      ...loser.cookieHeader.split("; ").map((c) => c.split("=")[1]!),
      ...winner.cookieHeader.split("; ").map((c) => c.split("=")[1]!),
      intent.data.clientSecret as string,
      intent.data.paymentIntentId as string,
      code,
    ];
    expect(secrets.every((s) => s && s.length >= 6)).toBe(true);
    for (const secret of secrets) expect(output).not.toContain(secret);
    // Nor any raw path with an id in it.
    expect(output).not.toContain(`/api/bets/${betId}/`);

    // The join's line: its id is the X-Request-Id header it answered with.
    const id = join.headers.get("x-request-id");
    expect(id).toBeTruthy();
    const line = logLines().find((l) => l.requestId === id);
    expect(line).toMatchObject({
      req: { method: "POST", route: "/api/bets/:id/join" },
      res: { status: 200 },
      msg: "request completed",
    });
    expect(typeof line?.durationMs).toBe("number");
    // One line per request, every one with its route pattern.
    const requests = logLines().filter((l) => l.requestId);
    expect(requests.length).toBeGreaterThanOrEqual(12);
    for (const l of requests) {
      expect(l.req?.route).toMatch(/^\/|^unmatched$/);
      expect(l.req?.route).not.toMatch(/\/\d+(\/|$)/);
    }
  });

  it("keeps a caller's plain request id and refuses a hostile one", async () => {
    const kept = await fetch(`${base}/healthz`, {
      headers: { "X-Request-Id": "trace-abc123" },
    });
    expect(kept.headers.get("x-request-id")).toBe("trace-abc123");
    const hostile = await fetch(`${base}/healthz`, {
      headers: { "X-Request-Id": 'x"} {"level":60}' },
    });
    expect(hostile.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("metrics", () => {
  it("answer on the metrics port with durations by route pattern and event-loop lag", async () => {
    await (await fetch(`${base}/api/bets`)).text();
    const res = await fetch(`${metricsBase}/metrics`);
    expect(res.status).toBe(200);
    // A request is counted when the server has finished sending it, which
    // can be just after the client has read it: ask until it shows.
    await expect
      .poll(async () => (await fetch(`${metricsBase}/metrics`)).text())
      .toContain(
        'http_request_duration_seconds_count{method="GET",route="/api/bets",status="200"}',
      );
    const text = await (await fetch(`${metricsBase}/metrics`)).text();
    expect(text).toMatch(/route="\/api\/bets\/:id\/join",status="200"/);
    expect(text).toContain("nodejs_eventloop_lag_seconds");
  });

  it("listen on loopback only, unless METRICS_HOST says otherwise", async () => {
    expect(metricsBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(metricsBase).port;
    // Every other address this machine has: nothing answers there.
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === "IPv4")
      .map((a) => a!.address);
    for (const address of others) {
      const reached = await fetch(`http://${address}:${port}/metrics`, {
        signal: AbortSignal.timeout(2000),
      }).then(
        () => true,
        () => false,
      );
      expect(reached, address).toBe(false);
    }
  });

  it("are not served on the public port", async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("# HELP");
  });
});
