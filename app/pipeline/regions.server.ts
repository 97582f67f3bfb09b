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
//   is replayed in the primary region instead of a 503, and so is every read
//   while the replica is further behind than REPLICA_MAX_LAG_MS or is no
//   longer a standby (app/db/replica-standing.server.ts);
// - an `fs_lsn` ahead of the primary's own position is ignored, not waited for.
//
// In the primary region, the answer to a request that may write sets
// `fs_lsn` to the WAL position after it (`pg_current_wal_lsn()`).
import type { MiddlewareFunction } from "react-router";
import {
  currentWalPosition,
  parseLsn,
  replicaLostRecently,
  replicaReaches,
  replicaStanding,
} from "~/models/requests/wal-positions.server";
import { routeTraits } from "~/framework/route-pattern";
import { HEALTH_PATH } from "~/route-paths";
import {
  forwardTimeoutMs,
  isProduction,
  primaryInternalUrl,
  regions,
  replicaWaitMs,
  trustedProxyHeader,
} from "~/utils/env.server";
import { DATABASE_UNAVAILABLE } from "~/utils/errors";
import { clientAddressContext } from "~/framework/request-context.server";
import {
  bodyOverReplayLimit,
  forward,
  forwardTarget,
  FORWARDED_HEADER,
} from "./forward-to-primary.server";

export { REPLAYABLE_BODY_BYTES } from "./forward-to-primary.server";

/** The cookie that carries the WAL position after a person's last write. */
export const LSN_COOKIE = "fs_lsn";

/** After a replica failed, reads go straight to the primary region this long. */
const REPLICA_BACKOFF_MS = 2_000;

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

// --- Which requests may write -------------------------------------------------

/**
 * Every method but a read's, and the reads of a route that says it writes
 * (`writesOnGet` in its `handle`, app/framework/route-traits.ts), known by
 * the route React Router's own matcher gives the path
 * (app/framework/route-pattern.ts): any case, any spelling that reaches it,
 * a page's data request (`/join/AB12CD.data`) as its page.
 */
export function mayWrite(method: string, url: URL): boolean {
  if (!READ_METHODS.has(method.toUpperCase())) return true;
  const writes = routeTraits(url.pathname).writesOnGet;
  if (!writes) return false;
  return writes === true || url.searchParams.has(writes.whenQuery);
}

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name)
      return part.slice(eq + 1).trim();
  }
  return null;
}

/** The answer with `fs_lsn` set to the primary's WAL position now. */
async function withLsnCookie(response: Response): Promise<Response> {
  if (response.status === 503) return response; // the database out of reach
  let lsn: string | null;
  try {
    lsn = await currentWalPosition();
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

function primaryOutOfReach() {
  return new Response(DATABASE_UNAVAILABLE, {
    status: 503,
    headers: { "Retry-After": "5", "Cache-Control": "no-store" },
  });
}

// --- The middleware -------------------------------------------------------------

export const regionMiddleware: MiddlewareFunction<Response> = async (
  { request, url, context },
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
    // A body the proxy cannot replay goes over the private network, once.
    const base = primaryInternalUrl();
    const target = base ? forwardTarget(base, url) : null;
    if (!target || request.headers.has(FORWARDED_HEADER))
      return replayIn(where.primary);
    const body = await bodyOverReplayLimit(request);
    if (!body) return replayIn(where.primary);
    const header = trustedProxyHeader();
    try {
      return await forward(request, body, target, {
        from: where.here,
        client: header
          ? { header, address: context.get(clientAddressContext) }
          : undefined,
        timeoutMs: forwardTimeoutMs(),
      });
    } catch (error) {
      console.warn(
        `regions: forwarding to ${where.primary} failed (${(error as Error).message})`,
      );
      return primaryOutOfReach();
    }
  }

  if (replicaLostRecently(REPLICA_BACKOFF_MS)) return replayIn(where.primary);
  // Lost, too far behind (an ended session still there) or promoted.
  const standing = await replicaStanding();
  if (standing !== null && standing !== "ok") return replayIn(where.primary);
  const own = parseLsn(cookieValue(request, LSN_COOKIE));
  if (own !== null && (await replicaReaches(own, replicaWaitMs())) === "late")
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
