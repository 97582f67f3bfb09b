// Regions (docs/decisions/1050-regions-read-nearby-write-in-one.md,
// docs/operations.md#regions): outside the primary region this machine reads
// from its region's replica and writes nothing. The root's first middleware
// decides, before any other work (the session, the idempotency claim):
//
// - a request that may write is answered 409 with an empty body and
//   `fly-replay: region={PRIMARY_REGION}`; Fly's proxy sends it again to the
//   primary region. A body Fly cannot replay (over 1 MB: an avatar) is
//   forwarded there by this machine instead, over the private network;
// - a read carrying `fs_lsn` (the person's own last write) waits for the
//   replica to have replayed that far, at most REPLICA_WAIT_MS, else is
//   replayed in the primary region rather than shown stale;
// - a read the replica could not answer (lost, or a write that reached it)
//   is replayed in the primary region instead of a 503.
//
// In the primary region, the answer to a request that may write sets
// `fs_lsn` to the WAL position after it (`pg_current_wal_lsn()`).
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import type { MiddlewareFunction } from "react-router";
import { db, replicaLostRecently, selectRows } from "~/db/client.server";
import { routePattern } from "~/framework/route-pattern";
import { HEALTH_PATH, WRITING_GETS } from "~/route-paths";
import {
  isProduction,
  primaryInternalUrl,
  regions,
  replicaWaitMs,
} from "~/utils/env.server";
import { DATABASE_UNAVAILABLE } from "~/utils/errors";

/** The cookie that carries the WAL position after a person's last write. */
export const LSN_COOKIE = "fs_lsn";

/** Fly's proxy replays no request body larger than this (1 MB). */
export const REPLAYABLE_BODY_BYTES = 1_000_000;

/** After a replica failed, reads go straight to the primary region this long. */
const REPLICA_BACKOFF_MS = 2_000;

/** Marks a request this machine forwarded, so it is never forwarded twice. */
const FORWARDED_HEADER = "Fairshake-Forwarded-From";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// --- Which requests may write -------------------------------------------------

/** Without the route table (development): segment by segment, in any case, as routes match. */
function matchesPattern(pattern: string, pathname: string) {
  const want = pattern.split("/");
  const got = pathname.split("/");
  if (want.length !== got.length) return false;
  return want.every((part, i) =>
    part.startsWith(":")
      ? got[i] !== ""
      : part.toLowerCase() === got[i]!.toLowerCase(),
  );
}

/**
 * Every method but a read's, and the GETs of `WRITING_GETS` (app/route-paths.ts),
 * known by the route React Router's own matcher gives the path
 * (app/framework/route-pattern.ts): any case, any spelling that reaches it.
 */
export function mayWrite(method: string, url: URL): boolean {
  if (!READ_METHODS.has(method.toUpperCase())) return true;
  // A page's data request (`/join/AB12CD.data`) is the page's read.
  const routed = routePattern(url.pathname).replace(/\.data$/, "");
  const pathname = url.pathname.replace(/\.data$/, "").replace(/\/$/, "");
  return WRITING_GETS.some(
    (get) =>
      (routed === get.path || matchesPattern(get.path, pathname)) &&
      (!get.whenQuery || url.searchParams.has(get.whenQuery)),
  );
}

// --- WAL positions ----------------------------------------------------------

/** A WAL position (`16/B374D848`) as one number, or null when malformed. */
export function parseLsn(value: string | null | undefined): bigint | null {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(value ?? "");
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name)
      return part.slice(eq + 1).trim();
  }
  return null;
}

async function oneLsn(query: ReturnType<typeof sql>): Promise<string | null> {
  const rows = await selectRows<{ lsn: string | null }>(db, query);
  return rows[0]?.lsn ?? null;
}

/** Waits until the replica has replayed `target`; false after `waitMs`, or when it cannot say. */
async function replicaReaches(target: bigint, waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    let replayed: bigint | null;
    try {
      replayed = parseLsn(
        await oneLsn(sql`SELECT pg_last_wal_replay_lsn()::text AS lsn`),
      );
    } catch {
      return false; // the replica lost: the primary region answers
    }
    if (replayed !== null && replayed >= target) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    // 5, 10, 20 … 80 ms: a fresh write is usually replayed within a few.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(left, 5 * 2 ** Math.min(attempt, 4))),
    );
  }
}

/** The answer with `fs_lsn` set to the primary's WAL position now. */
async function withLsnCookie(response: Response): Promise<Response> {
  if (response.status === 503) return response; // the database out of reach
  let lsn: string | null;
  try {
    lsn = await oneLsn(sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
  } catch {
    return response;
  }
  if (!lsn) return response;
  const cookie = `${LSN_COOKIE}=${lsn}; Path=/; Max-Age=600; HttpOnly; SameSite=Lax${isProduction ? "; Secure" : ""}`;
  try {
    response.headers.append("Set-Cookie", cookie);
    return response;
  } catch {
    // Immutable headers (a Response.redirect): the same answer, copied.
    const headers = new Headers(response.headers);
    headers.append("Set-Cookie", cookie);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  }
}

// --- Answers ------------------------------------------------------------------

/** 409, no body, `fly-replay`: Fly's proxy sends the request to `region`. */
export function replayIn(region: string): Response {
  return new Response(null, {
    status: 409,
    headers: { "fly-replay": `region=${region}`, "Cache-Control": "no-store" },
  });
}

function bodyTooLargeToReplay(request: Request) {
  if (!request.body) return false;
  const length = request.headers.get("Content-Length");
  // A body of unknown length may be any size: it is not left to the proxy.
  return length === null || Number(length) > REPLAYABLE_BODY_BYTES;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
]);

/**
 * The request sent on to the primary region by this machine, the answer
 * passed back as it streams. For what Fly's proxy cannot replay.
 */
function forward(request: Request, base: string, from: string) {
  const url = new URL(request.url);
  const target = new URL(url.pathname + url.search, base);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers)
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  headers[FORWARDED_HEADER.toLowerCase()] = from;
  return new Promise<Response>((resolve, reject) => {
    const send = target.protocol === "https:" ? https.request : http.request;
    const outgoing = send(
      target,
      { method: request.method, headers },
      (incoming) => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value === undefined || HOP_BY_HOP.has(name)) continue;
          for (const one of Array.isArray(value) ? value : [value])
            answer.append(name, one);
        }
        const status = incoming.statusCode ?? 502;
        const bodyless = status === 204 || status === 304;
        if (bodyless) incoming.resume();
        resolve(
          new Response(
            bodyless
              ? null
              : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>),
            { status, statusText: incoming.statusMessage, headers: answer },
          ),
        );
      },
    );
    outgoing.on("error", reject);
    request.signal.addEventListener("abort", () => outgoing.destroy());
    if (!request.body) outgoing.end();
    else
      Readable.fromWeb(request.body as import("node:stream/web").ReadableStream)
        .on("error", (error) => outgoing.destroy(error))
        .pipe(outgoing);
  });
}

function primaryOutOfReach() {
  return new Response(DATABASE_UNAVAILABLE, {
    status: 503,
    headers: { "Retry-After": "5", "Cache-Control": "no-store" },
  });
}

// --- The middleware -------------------------------------------------------------

export const regionMiddleware: MiddlewareFunction<Response> = async (
  { request, url },
  next,
) => {
  const where = regions();
  // One region, or the health check (Fly asks each machine itself).
  if (!where || url.pathname === HEALTH_PATH) return next();
  const writes = mayWrite(request.method, url);

  if (!where.outside) {
    const response = await next();
    return writes ? withLsnCookie(response) : response;
  }

  if (writes) {
    const base = primaryInternalUrl();
    if (
      base &&
      bodyTooLargeToReplay(request) &&
      !request.headers.has(FORWARDED_HEADER)
    ) {
      try {
        return await forward(request, base, where.here);
      } catch (error) {
        console.warn(
          `regions: forwarding to ${where.primary} failed (${(error as Error).message})`,
        );
        return primaryOutOfReach();
      }
    }
    return replayIn(where.primary);
  }

  if (replicaLostRecently(REPLICA_BACKOFF_MS)) return replayIn(where.primary);
  const own = parseLsn(cookieValue(request, LSN_COOKIE));
  if (own !== null && !(await replicaReaches(own, replicaWaitMs())))
    return replayIn(where.primary);

  const response = await next();
  // Outside the primary region a 503 is the replica's: lost, or a write
  // that reached it (SQLSTATE 25006). The primary region answers instead.
  if (response.status === 503) {
    await response.body?.cancel().catch(() => undefined);
    return replayIn(where.primary);
  }
  return response;
};
