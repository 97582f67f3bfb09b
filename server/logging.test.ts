// The request line (server/logging.ts): one per request, with the id it
// answered with, method, route pattern, status and duration — when the
// answer is finished, when it failed, and when the client left first.
import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestLogging } from "./logging";

type Line = {
  level: number;
  requestId: string;
  req: { method: string; route: string };
  res: { status: number };
  durationMs: number;
  msg: string;
  err?: { message: string };
};

const lines: Line[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const l of String(chunk).split("\n").filter(Boolean))
      lines.push(JSON.parse(l) as Line);
    done();
  },
});
let server: http.Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(requestLogging(sink));
  app.get("/ok", (_req, res) => void res.send("fine"));
  app.get("/boom", (_req, res) => void res.status(500).send("no"));
  app.get("/hang", () => {}); // never answers
  server = app.listen(0);
  await new Promise((r) => server.once("listening", r));
  base = `http://localhost:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const lineFor = async (id: string) => {
  for (let i = 0; i < 100 && !lines.some((l) => l.requestId === id); i++)
    await new Promise((r) => setTimeout(r, 10));
  return lines.filter((l) => l.requestId === id);
};

describe("the request line", () => {
  it("is written once when the answer is finished, under the id it answered with", async () => {
    const res = await fetch(`${base}/ok`);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const found = await lineFor(id);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      level: 30,
      res: { status: 200 },
      msg: "request completed",
    });
    expect(found[0]!.req.method).toBe("GET");
    expect(typeof found[0]!.durationMs).toBe("number");
  });

  it("says a 5xx failed", async () => {
    const res = await fetch(`${base}/boom`, {
      headers: { "X-Request-Id": "trace-boom-1" },
    });
    expect(res.status).toBe(500);
    const [line] = await lineFor("trace-boom-1");
    expect(line).toMatchObject({
      res: { status: 500 },
      msg: "request failed (500)",
      err: { message: "failed with status code 500" },
    });
  });

  it("says a request was aborted when the client left before the answer", async () => {
    const controller = new AbortController();
    const pending = fetch(`${base}/hang`, {
      headers: { "X-Request-Id": "trace-gone-1" },
      signal: controller.signal,
    }).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await pending;
    const found = await lineFor("trace-gone-1");
    expect(found).toHaveLength(1);
    expect(found[0]!.msg).toBe("request aborted");
  });
});
