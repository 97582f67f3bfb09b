// The one request a machine outside the primary region sends on itself
// (docs/decisions/1063-forwarding-to-the-primary-region.md): a write whose
// body Fly's proxy will not replay (over 1 MB, an avatar). Everything else is
// left to the proxy's `fly-replay`. This path is a door into the private
// network, so it holds to three things:
//
// - what: only a body over the replay limit, declared (`Content-Length`) or
//   counted (a chunked body is read up to the limit first; a small one is
//   replayed the ordinary way, the proxy keeps its own copy);
// - where: only PRIMARY_INTERNAL_URL's own origin; the request's path is set
//   on that URL as a path, so no path (`//host`, `/.//host`, backslashes,
//   encoded slashes) can name another host;
// - how: the client's end-to-end headers only (no `Host`, no hop-by-hop, no
//   `Fly-*`: the visitor's address goes in the trusted proxy header this
//   machine itself read), an idle timeout, and the answer's hop-by-hop
//   headers dropped.
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

/** Fly's proxy replays no request body larger than this (1 MB). */
export const REPLAYABLE_BODY_BYTES = 1_000_000;

/** Marks a request this machine forwarded, so it is never forwarded twice. */
export const FORWARDED_HEADER = "fairshake-forwarded-from";

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "trailers",
]);

/** Request headers never sent on: the target's own, or the client's say over the route. */
const NOT_FROM_THE_CLIENT = new Set([
  "host",
  "content-length", // set again from what is sent
  "expect",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-real-ip",
  FORWARDED_HEADER,
]);

/** Header names a `Connection` header lists are hop-by-hop too. */
function namedInConnection(headers: Headers): Set<string> {
  return new Set(
    (headers.get("connection") ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * Where a request for `url` goes: the primary's origin, with the request's
 * path and query set as such. Null when `base` is not an http(s) URL.
 */
export function forwardTarget(base: string, url: URL): URL | null {
  let origin: URL;
  try {
    origin = new URL(new URL(base).origin);
  } catch {
    return null;
  }
  if (origin.protocol !== "http:" && origin.protocol !== "https:") return null;
  const target = new URL(origin);
  // The setters take a path and a query, never an authority.
  target.pathname = url.pathname;
  target.search = url.search;
  return target.origin === origin.origin ? target : null;
}

/**
 * The body to forward when it is over the replay limit, or null: no body,
 * or one small enough for the proxy to replay. A body of unknown length is
 * counted: read up to the limit, and then sent on whole if it goes past it.
 */
export async function bodyOverReplayLimit(
  request: Request,
  limit = REPLAYABLE_BODY_BYTES,
): Promise<ReadableStream<Uint8Array> | null> {
  if (!request.body) return null;
  const declared = request.headers.get("content-length");
  if (declared !== null) return Number(declared) > limit ? request.body : null;
  const reader = request.body.getReader();
  const read: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return null; // counted, and small: the proxy replays it
    read.push(value);
    bytes += value.byteLength;
    if (bytes > limit) break;
  }
  // What was read, then the rest as it comes.
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const next = read.shift();
      if (next) return controller.enqueue(next);
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

export type ForwardOptions = {
  /** This machine's region, marked on the request. */
  from: string;
  /** The visitor's address, and the header the primary believes it from. */
  client?: { header: string; address: string };
  /** Idle time after which the forward is given up. */
  timeoutMs: number;
};

/** The request's headers as they go on to the primary. */
export function forwardedHeaders(
  request: Request,
  { from, client }: Pick<ForwardOptions, "from" | "client">,
): Record<string, string> {
  const hop = namedInConnection(request.headers);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) {
    if (HOP_BY_HOP.has(name) || hop.has(name)) continue;
    if (NOT_FROM_THE_CLIENT.has(name) || name.startsWith("fly-")) continue;
    headers[name] = value;
  }
  if (client) headers[client.header.toLowerCase()] = client.address;
  headers[FORWARDED_HEADER] = from;
  return headers;
}

/** The answer's headers as they go back: its hop-by-hop ones dropped. */
function answerHeaders(incoming: http.IncomingMessage): Headers {
  const hop = new Set(
    String(incoming.headers.connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase()),
  );
  const answer = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || hop.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value])
      answer.append(name, one);
  }
  return answer;
}

/**
 * Sends `request` with `body` to `target` and resolves with the answer as it
 * streams. Rejects when the primary cannot be reached or goes quiet for
 * `timeoutMs` before answering.
 */
export function forward(
  request: Request,
  body: ReadableStream<Uint8Array>,
  target: URL,
  options: ForwardOptions,
): Promise<Response> {
  const headers = forwardedHeaders(request, options);
  const declared = request.headers.get("content-length");
  if (declared !== null) headers["content-length"] = declared;
  return new Promise<Response>((resolve, reject) => {
    const send = target.protocol === "https:" ? https.request : http.request;
    const outgoing = send(
      target,
      { method: request.method, headers },
      (incoming) => {
        const status = incoming.statusCode ?? 502;
        const bodyless =
          status === 204 || status === 304 || request.method === "HEAD";
        if (bodyless) incoming.resume();
        resolve(
          new Response(
            bodyless
              ? null
              : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>),
            {
              status,
              statusText: incoming.statusMessage,
              headers: answerHeaders(incoming),
            },
          ),
        );
      },
    );
    // Idle, not total: a large upload on a slow link keeps it alive.
    outgoing.setTimeout(options.timeoutMs, () =>
      outgoing.destroy(
        new Error(`no answer within ${options.timeoutMs} ms of quiet`),
      ),
    );
    outgoing.on("error", reject);
    const stop = () => outgoing.destroy(new Error("the client went away"));
    if (request.signal.aborted) stop();
    else request.signal.addEventListener("abort", stop, { once: true });
    Readable.fromWeb(body as NodeReadableStream<Uint8Array>)
      .on("error", (error) => outgoing.destroy(error))
      .pipe(outgoing);
  });
}
