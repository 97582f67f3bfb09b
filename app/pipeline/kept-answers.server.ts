// What the idempotency guard (./idempotency-guard.server.ts) reads from a
// keyed write and keeps of its answer: the door it came through, the key
// and what identifies its body, the fingerprint a repeat must match, and
// the kept answer as each door gets it back.
import crypto from "node:crypto";
import { isDataRequest } from "~/framework/route-pattern";
import type { KeptAnswer } from "~/models/requests/idempotency-keys.server";
import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";

// Never repeated: hop-by-hop, per-answer, and the session cookie (its token
// is stored nowhere in clear, and the kept answers must not change that).
// Content-Encoding stays: a page is compressed whole before it gets here
// (docs/decisions/archive/0836-pages-as-gzip.md), and its bytes are kept as they are.
const NOT_KEPT = new Set([
  "date",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);
const SESSION_COOKIE = /^(__Host-)?fairshake_session=/;

/** Which door a write came through: the /api, a page without JavaScript, or its data request. */
export type Flavour = "api" | "document" | "data";

export function flavourOf(request: Request, url: URL): Flavour {
  if (/^\/api(\/|$)/i.test(url.pathname)) return "api";
  return isDataRequest(request) ? "data" : "document";
}

type SentKey = { key: string; body: (string | Buffer)[] };

/** The key and what identifies the request's body, or null when no key was sent. */
export async function readKey(
  request: Request,
  flavour: Flavour,
): Promise<SentKey | null> {
  const header = request.headers.get("Idempotency-Key");
  const type = request.headers.get("Content-Type") ?? "";
  if (
    flavour === "api" ||
    !/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)
  ) {
    if (header === null) return null;
    const bytes = Buffer.from(await request.clone().arrayBuffer());
    return { key: header, body: [bytes] };
  }
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    return null; // the route refuses the unreadable form itself
  }
  const field = form.get(IDEMPOTENCY_FIELD);
  const key = typeof field === "string" ? field : header;
  if (key === null) return null;
  const body: (string | Buffer)[] = [];
  for (const [name, value] of form) {
    if (name === IDEMPOTENCY_FIELD) continue;
    body.push(name);
    body.push(
      typeof value === "string"
        ? value
        : Buffer.concat([
            Buffer.from(`${value.name}:${value.size}:`),
            Buffer.from(await value.arrayBuffer()),
          ]),
    );
  }
  return { key, body };
}

// The path as routing reads it: in any case, with or without a trailing slash.
const routed = (path: string) => path.toLowerCase().replace(/(.)\/+$/, "$1");

/** What the request is: its method, its address as routing reads it (the query too), its body. */
export function fingerprintOf(
  method: string,
  url: URL,
  body: (string | Buffer)[],
) {
  const hash = crypto.createHash("sha256");
  const address = routed(url.pathname) + url.search;
  for (const part of [method, address, ...body]) {
    const bytes = typeof part === "string" ? Buffer.from(part) : part;
    // Length-prefixed, so ["ab", "c"] and ["a", "bc"] differ.
    hash.update(`${bytes.byteLength}:`);
    hash.update(bytes);
  }
  return hash.digest("hex");
}

export function keptAnswerOf(
  response: Response,
  flavour: Flavour,
  body: Buffer,
): KeptAnswer {
  const headers: [string, string][] = [];
  for (const [name, value] of response.headers) {
    if (NOT_KEPT.has(name)) continue;
    if (name === "set-cookie" && SESSION_COOKIE.test(value)) continue;
    headers.push([name, value]);
  }
  return {
    flavour,
    status: response.status,
    location: response.headers.get("Location"),
    headers,
    body,
  };
}

/** An answer sent without a body (a 204, or nothing written). */
export const bodyless = (status: number, body: Buffer) =>
  body.byteLength === 0 || status === 204;

export function responseOf(answer: KeptAnswer, replayed = false) {
  const headers = new Headers(answer.headers);
  if (replayed) headers.set("Idempotent-Replayed", "true");
  return new Response(
    bodyless(answer.status, answer.body) ? null : new Uint8Array(answer.body),
    {
      status: answer.status,
      headers,
    },
  );
}

/**
 * The kept answer, as this request can read it: the same door gets it
 * whole; a page asked the other way (its first copy by JavaScript, this one
 * without, or the reverse) is sent where the first answer led, or back to
 * the page.
 */
export function replay(answer: KeptAnswer, flavour: Flavour, url: URL) {
  if (answer.flavour === flavour) return responseOf(answer, true);
  const to = answer.location ?? url.pathname;
  return new Response(null, {
    status: 303,
    headers: { Location: to, "Idempotent-Replayed": "true" },
  });
}
