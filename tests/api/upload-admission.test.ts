// Large bodies admitted by a byte budget (app/framework/body-admission.ts,
// docs/decisions/1140-uploads-admitted-by-a-byte-budget.md): an upload past
// what the process may hold at once waits, unread, for the ones before it;
// every one is answered; a sender that goes away while waiting or sending
// gives its place back; a wait past the limit is a 503 with Retry-After.
// The budget here is one photo of ~1.3 MB at a time.
import crypto from "node:crypto";
import http from "node:http";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { useServers } from "../support/use-server";
import { newBet, person, type Person } from "../support/world";

const BUDGET = String(1536 * 1024);
const [server, hurried] = useServers(
  { UPLOAD_BUDGET_BYTES: BUDGET, UPLOAD_WAIT_MS: "60000" },
  { UPLOAD_BUDGET_BYTES: BUDGET, UPLOAD_WAIT_MS: "1000" },
);

/** A JPEG of noise over 1 MB (noise compresses worst), under the 1.5 MB budget. */
let photo: Buffer;
beforeAll(async () => {
  const [width, height] = [1400, 1000];
  photo = await sharp(crypto.randomBytes(width * height * 3), {
    raw: { width, height, channels: 3 },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
  expect(photo.byteLength).toBeGreaterThan(1024 * 1024);
  expect(photo.byteLength).toBeLessThan(1536 * 1024);
});

function messageBody(text: string, photos: Buffer[]) {
  const boundary = `----admission-${crypto.randomBytes(8).toString("hex")}`;
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${text}\r\n`,
    ),
  ];
  for (const [i, bytes] of photos.entries())
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      bytes,
      Buffer.from("\r\n"),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(parts),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

async function talker(url: string) {
  const who = await person(url, "up");
  const bet = await newBet(who, { visibility: "private" });
  return { who, betId: bet.id };
}

async function send(
  url: string,
  { who, betId }: { who: Person; betId: number },
  text: string,
  photos = [photo],
) {
  const { body, type } = messageBody(text, photos);
  const res = await fetch(`${url}/api/bets/${betId}/messages`, {
    method: "POST",
    headers: { Cookie: who.client.cookieHeader, "Content-Type": type },
    body,
  });
  return {
    status: res.status,
    retryAfter: res.headers.get("Retry-After"),
    data: (await res.json()) as {
      body?: string;
      photos?: unknown[];
      error?: string;
    },
  };
}

/**
 * A message sent by hand: its head and the first `sendFirst` bytes of its
 * body now, the rest on `finish()`, or the connection dropped on `abort()`.
 */
function sendByHand(
  url: string,
  { who, betId }: { who: Person; betId: number },
  text: string,
  sendFirst: number,
) {
  const { body, type } = messageBody(text, [photo]);
  let settle: (answer: { status: number; text: string }) => void;
  const answer = new Promise<{ status: number; text: string }>(
    (resolve) => (settle = resolve),
  );
  const req = http.request(new URL(`/api/bets/${betId}/messages`, url), {
    method: "POST",
    headers: {
      Cookie: who.client.cookieHeader,
      "Content-Type": type,
      "Content-Length": String(body.byteLength),
    },
  });
  req.on("response", (res) => {
    let text = "";
    res.on("data", (c) => (text += c));
    res.on("end", () => settle({ status: res.statusCode ?? 0, text }));
  });
  // An aborted sender's own error is the point, not a failure.
  req.on("error", () => settle({ status: 0, text: "" }));
  req.write(body.subarray(0, sendFirst));
  return {
    answer,
    finish: () => {
      req.end(body.subarray(sendFirst));
      return answer;
    },
    abort: () => req.destroy(),
  };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Each test decodes real photos one at a time: slow on a busy machine, and
// one test's uploads still queued would hold up the next.
const DECODING = { timeout: 120_000 };

describe("uploads past the budget wait their turn", DECODING, () => {
  it("four uploads at once, one photo each, are all taken with their photos", async () => {
    const people = await Promise.all(
      Array.from({ length: 4 }, () => talker(server.url)),
    );
    const answers = await Promise.all(
      people.map((p, i) => send(server.url, p, `At once ${i}`)),
    );
    for (const [i, a] of answers.entries()) {
      expect(a.status, JSON.stringify(a.data)).toBe(201);
      expect(a.data.body).toBe(`At once ${i}`);
      expect(a.data.photos).toHaveLength(1);
    }
  });

  it("a message of four photos, larger than the whole budget, goes alone beside others waiting", async () => {
    const [big, small] = await Promise.all([
      talker(server.url),
      talker(server.url),
    ]);
    const answers = await Promise.all([
      send(server.url, small, "Before"),
      send(server.url, big, "Four", [photo, photo, photo, photo]),
      send(server.url, small, "After"),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(answers[1]!.data.photos).toHaveLength(4);
  });

  it("a sender gone while waiting, or while sending, gives its place back", async () => {
    const [a, b, c] = await Promise.all([
      talker(server.url),
      talker(server.url),
      talker(server.url),
    ]);
    // A is admitted and holds the whole budget while its body trickles in.
    const holder = sendByHand(server.url, a, "Holding", 64 * 1024);
    await tick(200);
    // B waits behind it (a few bytes sent: its socket is still read), then goes.
    const leaver = sendByHand(server.url, b, "Leaving", 1024);
    await tick(200);
    leaver.abort();
    await tick(200);
    const behind = send(server.url, c, "Behind");
    await tick(200);
    expect((await holder.finish()).status).toBe(201);
    expect((await behind).status).toBe(201);
    // An admitted sender that goes away mid-body releases what it held.
    const quitter = sendByHand(server.url, a, "Quitting", 256 * 1024);
    await tick(300);
    quitter.abort();
    expect((await send(server.url, c, "Still taken")).status).toBe(201);
    expect((await leaver.answer).status).toBe(0);
  });
});

describe("a wait past the limit", DECODING, () => {
  it("is answered 503 with Retry-After, and the budget is whole again after", async () => {
    const [a, b] = await Promise.all([
      talker(hurried.url),
      talker(hurried.url),
    ]);
    const holder = sendByHand(hurried.url, a, "Holding", 64 * 1024);
    await tick(200);
    const late = await send(hurried.url, b, "Too late");
    expect(late.status).toBe(503);
    expect(late.retryAfter).toBe("1");
    expect(late.data.error).toMatch(/busy with other uploads/);
    expect((await holder.finish()).status).toBe(201);
    // Nothing of the late one was kept, nor of the holder's.
    const again = await send(hurried.url, b, "Now");
    expect(again.status).toBe(201);
    expect(again.data.photos).toHaveLength(1);
  });
});
