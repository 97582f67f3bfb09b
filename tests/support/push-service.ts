// A stand-in for a browser's push service on loopback. Like the real ones,
// it refuses a request without a valid VAPID signature (RFC 8292: an ES256
// JWT for this origin, signed by the key in `k`), and it proves what the
// server sent by decrypting it (RFC 8291 + RFC 8188, aes128gcm) with the
// subscription's private key, as the browser would. Subscriptions it is told
// are gone answer 410.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Subscription = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
};
export type PushReceived = {
  id: string;
  payload: { title: string; body: string; url: string };
  ttl: number;
};

type Browser = { ecdh: crypto.ECDH; auth: Buffer };

export type TestPushService = {
  url: string;
  received: PushReceived[];
  refused: string[];
  /** A browser's subscription: its keys stay here to decrypt with. */
  subscribe: (id?: string) => Subscription;
  gone: Set<string>;
  waitFor: (
    match: (p: PushReceived) => boolean,
    timeoutMs?: number,
  ) => Promise<PushReceived>;
  stop: () => Promise<void>;
};

const b64u = (b: Buffer) => b.toString("base64url");
const hmac = (key: Buffer, data: Buffer) =>
  crypto.createHmac("sha256", key).update(data).digest();

function verifyVapid(
  header: string | undefined,
  audience: string,
): string | null {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!m) return "no vapid authorization";
  const [jwt, k] = [m[1]!, m[2]!];
  const [h, p, s] = jwt.split(".");
  if (!h || !p || !s) return "malformed jwt";
  const raw = Buffer.from(k, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) return "bad k";
  const key = crypto.createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: b64u(raw.subarray(1, 33)),
      y: b64u(raw.subarray(33)),
    },
    format: "jwk",
  });
  const ok = crypto.verify(
    "sha256",
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(s, "base64url"),
  );
  if (!ok) return "bad signature";
  const claims = JSON.parse(Buffer.from(p, "base64url").toString()) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  if (claims.aud !== audience) return `aud ${claims.aud} is not ${audience}`;
  if (!claims.exp || claims.exp * 1000 < Date.now()) return "expired";
  if (!claims.sub) return "no sub";
  return null;
}

function decrypt(body: Buffer, browser: Browser): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const uaPublic = browser.ecdh.getPublicKey();
  const shared = browser.ecdh.computeSecret(asPublic);
  const prkKey = hmac(browser.auth, shared);
  const keyInfo = Buffer.concat([
    Buffer.from("WebPush: info\0"),
    uaPublic,
    asPublic,
    Buffer.from([1]),
  ]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(
    prk,
    Buffer.concat([
      Buffer.from("Content-Encoding: aes128gcm\0"),
      Buffer.from([1]),
    ]),
  ).subarray(0, 16);
  const nonce = hmac(
    prk,
    Buffer.concat([Buffer.from("Content-Encoding: nonce\0"), Buffer.from([1])]),
  ).subarray(0, 12);
  const decipher = crypto.createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end -= 1;
  if (plain[end] !== 2) throw new Error("no last-record delimiter");
  return plain.subarray(0, end);
}

export async function startPushService(): Promise<TestPushService> {
  const browsers = new Map<string, Browser>();
  const service: TestPushService = {
    url: "",
    received: [],
    refused: [],
    gone: new Set(),
    subscribe: (id = crypto.randomUUID()) => {
      const ecdh = crypto.createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      browsers.set(id, { ecdh, auth });
      return {
        endpoint: `${service.url}/push/${id}`,
        keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) },
      };
    },
    waitFor: async (match, timeoutMs = 20_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const hit = service.received.find(match);
        if (hit) return hit;
        if (Date.now() > until)
          throw new Error(
            `no matching push; got ${JSON.stringify(service.received)}; refused ${service.refused.join(", ")}`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? "")?.[1];
      const browser = id ? browsers.get(id) : undefined;
      if (!id || !browser) return void res.writeHead(404).end();
      if (service.gone.has(id)) return void res.writeHead(410).end();
      const problem =
        verifyVapid(req.headers.authorization, service.url) ??
        (req.headers["content-encoding"] === "aes128gcm"
          ? null
          : "not aes128gcm");
      if (problem) {
        service.refused.push(problem);
        return void res.writeHead(403).end(problem);
      }
      try {
        const payload = JSON.parse(
          decrypt(Buffer.concat(chunks), browser).toString("utf8"),
        ) as PushReceived["payload"];
        service.received.push({ id, payload, ttl: Number(req.headers.ttl) });
        res.writeHead(201).end();
      } catch (error) {
        service.refused.push(`undecryptable: ${String(error)}`);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}
