// What the idempotency guard (./idempotency-guard.server.ts) reads from a
// keyed write and keeps of its answer: the door it came through, the key
// and what identifies its body, the fingerprint a repeat must match, and
// the kept answer as each door gets it back.
import crypto from "node:crypto";
import { isDataRequest } from "~/framework/route-pattern";
import type { KeptAnswer } from "~/models/requests/idempotency-keys.server";
import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";
import {
  allParts,
  multipartBoundary,
} from "~/framework/multipart-parser.server";
import { readBodyOnceFor } from "~/framework/upload.server";

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
  if (/^multipart\/form-data/i.test(type))
    return readMultipartKey(request, header);
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
    if (name === IDEMPOTENCY_FIELD || typeof value !== "string") continue;
    body.push(name, value);
  }
  return { key, body };
}

/**
 * A page's multipart form (a message with its photos, up to 40 MB): joined
 * once, split into views by the upload's own parser, and those same bytes
 * handed on to the route (`readBodyOnceFor`), not read by `formData()`,
 * whose Blob and ArrayBuffer per file held three more copies of every
 * photo beside the route's own (measured in
 * docs/decisions/archive/1120-photo-upload-memory.md). A file is identified
 * by its name, size and SHA-256, so a repeat of the same form matches
 * whatever boundary the browser drew.
 */
async function readMultipartKey(
  request: Request,
  header: string | null,
): Promise<SentKey | null> {
  const boundary = multipartBoundary(request.headers.get("Content-Type"));
  if (boundary === null) return null;
  let parts: ReturnType<typeof allParts>;
  try {
    parts = allParts(await readBodyOnceFor(request, request.clone()), boundary);
  } catch {
    return null;
  }
  if (parts === "failure") return null; // the route refuses it itself
  const text = (bytes: Uint8Array) => UTF8.decode(bytes);
  const field = parts.find(
    (p) => p.name === IDEMPOTENCY_FIELD && p.filename === null,
  );
  const key = field ? text(field.body) : header;
  if (key === null) return null;
  const body: (string | Buffer)[] = [];
  for (const part of parts) {
    if (part.name === IDEMPOTENCY_FIELD) continue;
    body.push(part.name);
    body.push(
      part.filename === null
        ? text(part.body)
        : `${part.filename}:${part.body.byteLength}:${crypto
            .createHash("sha256")
            .update(part.body)
            .digest("hex")}`,
    );
  }
  return { key, body };
}

const UTF8 = new TextDecoder();

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
