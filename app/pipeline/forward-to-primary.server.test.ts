// The forwarding door (docs/decisions/1063-forwarding-to-the-primary-region.md):
// where a forward may go, what it carries, and that a quiet upstream cannot
// hold a request open. Real sockets on loopback; the region suite
// (tests/api/regions.test.ts) proves the same through two app servers.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bodyOverReplayLimit,
  forward,
  forwardedHeaders,
  forwardTarget,
} from "./forward-to-primary.server";

const PRIMARY = "http://primary.internal:3000";

describe("forwardTarget", () => {
  const target = (path: string) =>
    forwardTarget(PRIMARY, new URL(path, "http://syd.example"))?.href;

  it("keeps the primary's host whatever the path says", () => {
    for (const path of [
      "//127.0.0.1:41999/x",
      "/.//127.0.0.1:41999/x",
      "/a/..//127.0.0.1:41999/x",
      "/\\\\127.0.0.1:41999/x",
      "/%2F%2F127.0.0.1:41999/x",
      "/%5C%5C127.0.0.1:41999/x",
      "/..%2F..%2F/127.0.0.1:41999/x",
      "/@127.0.0.1:41999/x",
    ]) {
      const href = target(path);
      expect(href, path).toBeDefined();
      expect(new URL(href!).host, path).toBe("primary.internal:3000");
    }
  });

  it("sends the path and query as they came, on the primary's origin only", () => {
    expect(target("/profile/edit?index&x=1")).toBe(
      "http://primary.internal:3000/profile/edit?index&x=1",
    );
    // A path on the configured URL is not a prefix: the origin is the target.
    expect(
      forwardTarget(`${PRIMARY}/other/`, new URL("http://syd/profile/edit"))
        ?.href,
    ).toBe("http://primary.internal:3000/profile/edit");
    expect(forwardTarget("file:///etc/passwd", new URL("http://syd/x"))).toBe(
      null,
    );
    expect(forwardTarget("not a url", new URL("http://syd/x"))).toBe(null);
  });
});

describe("forwardedHeaders", () => {
  it("drops Host, hop-by-hop, Fly-* and forwarding headers, and sets the visitor's address", () => {
    const request = new Request("http://syd.example/profile/edit", {
      method: "POST",
      headers: {
        Host: "evil.example",
        Connection: "keep-alive, X-Secret-Hop",
        "X-Secret-Hop": "1",
        "Keep-Alive": "timeout=5",
        TE: "trailers",
        "Fly-Client-IP": "6.6.6.6",
        "Fly-Force-Instance-Id": "abc",
        "Fly-Replay-Src": "region=ams",
        "X-Forwarded-For": "6.6.6.6",
        "Fairshake-Forwarded-From": "lhr",
        Cookie: "__session=abc",
        "Content-Type": "multipart/form-data; boundary=x",
        "Idempotency-Key": "k1",
        Origin: "https://fairshake.example",
      },
    });
    const headers = forwardedHeaders(request, {
      from: "syd",
      client: { header: "Fly-Client-IP", address: "203.0.113.9" },
    });
    expect(headers).toEqual({
      cookie: "__session=abc",
      "content-type": "multipart/form-data; boundary=x",
      "idempotency-key": "k1",
      origin: "https://fairshake.example",
      "fly-client-ip": "203.0.113.9",
      "fairshake-forwarded-from": "syd",
    });
  });
});

/** A body sent in chunks with no declared length. */
function chunked(sizes: number[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const size of sizes) controller.enqueue(new Uint8Array(size));
      controller.close();
    },
  });
  return new Request("http://syd.example/x", {
    method: "POST",
    body,
    duplex: "half",
  } as RequestInit);
}

async function bytesOf(stream: ReadableStream<Uint8Array> | null) {
  if (!stream) return null;
  return (await new Response(stream).arrayBuffer()).byteLength;
}

describe("bodyOverReplayLimit", () => {
  it("leaves a small chunked body to the proxy and forwards a large one whole", async () => {
    expect(await bodyOverReplayLimit(chunked([300, 300]), 1_000)).toBe(null);
    expect(await bodyOverReplayLimit(chunked([1_000]), 1_000)).toBe(null);
    const large = await bodyOverReplayLimit(chunked([600, 600, 600]), 1_000);
    expect(await bytesOf(large)).toBe(1_800);
  });

  it("believes a declared length, and has nothing to forward without a body", async () => {
    const declared = (length: number) =>
      new Request("http://syd.example/x", {
        method: "POST",
        body: new Uint8Array(length),
        headers: { "Content-Length": String(length) },
      });
    expect(await bodyOverReplayLimit(declared(999), 1_000)).toBe(null);
    expect(
      await bytesOf(await bodyOverReplayLimit(declared(1_001), 1_000)),
    ).toBe(1_001);
    expect(await bodyOverReplayLimit(new Request("http://syd.example/x"))).toBe(
      null,
    );
  });
});

describe("forward", () => {
  let upstream: http.Server;
  let base: string;
  const seen: { headers: http.IncomingHttpHeaders; bytes: number }[] = [];
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      let bytes = 0;
      req.on("data", (chunk: Buffer) => (bytes += chunk.length));
      req.on("end", () => {
        seen.push({ headers: req.headers, bytes });
        if (req.url === "/quiet") return; // never answers
        res.writeHead(201, {
          Connection: "keep-alive, X-Upstream-Hop",
          "X-Upstream-Hop": "1",
          "Keep-Alive": "timeout=5",
          "Set-Cookie": "fs_lsn=0/1",
          "Content-Type": "text/plain",
        });
        res.end(`got ${bytes}`);
      });
    });
    upstream.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) =>
      upstream.listen(0, "127.0.0.1", resolve),
    );
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const post = (path: string) => {
    const request = chunked([700_000, 700_000]);
    return {
      request,
      target: forwardTarget(base, new URL(path, "http://syd.example"))!,
    };
  };

  it("passes the body on and the answer back, without the answer's hop-by-hop headers", async () => {
    const { request, target } = post("/profile/edit");
    const body = await bodyOverReplayLimit(request);
    const answer = await forward(request, body!, target, {
      from: "syd",
      timeoutMs: 5_000,
    });
    expect(answer.status).toBe(201);
    expect(await answer.text()).toBe("got 1400000");
    expect(answer.headers.get("set-cookie")).toBe("fs_lsn=0/1");
    expect(answer.headers.has("x-upstream-hop")).toBe(false);
    expect(answer.headers.has("keep-alive")).toBe(false);
    expect(answer.headers.has("connection")).toBe(false);
    const last = seen.at(-1)!;
    expect(last.bytes).toBe(1_400_000);
    expect(last.headers["fairshake-forwarded-from"]).toBe("syd");
    expect(last.headers.host).toBe(new URL(base).host);
  });

  it("gives up on an upstream that goes quiet, instead of hanging", async () => {
    const { request, target } = post("/quiet");
    const body = await bodyOverReplayLimit(request);
    await expect(
      forward(request, body!, target, { from: "syd", timeoutMs: 200 }),
    ).rejects.toThrow(/no answer within 200 ms/);
  });
});
