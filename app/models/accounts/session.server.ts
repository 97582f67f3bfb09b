// Sessions live in the database (a model: it owns the sessions table); the cookie carries only a random 256-bit
// token, signed. The table stores the token's SHA-256, so logout and expiry
// really end a session and a copied database hands out nothing.
import { createContext, href, redirect } from "react-router";
import crypto from "node:crypto";
import { hashToken } from "./token-hash.server";
import { and, eq, gt, lt, ne, sql } from "drizzle-orm";
import { db, preparedOnce, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { writesHere } from "~/db/primary-scope.server";
import { sessions, users, type User } from "~/db/schema";
import { isProduction } from "~/utils/env.server";
import { sessionSecret } from "~/utils/env-start.server";
import { DomainError } from "~/utils/errors";
import { rememberDemoAccount } from "../notifications/demo-outbox.server";
import { signedCookie } from "~/framework/signed-cookie.server";
import { getUser, type RequestArgs } from "../requests/request-user.server";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

// `__Host-` requires Secure, path=/ and no Domain: the browser then refuses
// the cookie from any subdomain or plain-HTTP page. Read with a synchronous
// HMAC check on every request (~/framework/signed-cookie.server).
const sessionCookie = signedCookie(
  isProduction ? "__Host-fairshake_session" : "fairshake_session",
  {
    httpOnly: true,
    sameSite: "lax",
    secure: isProduction,
    path: "/",
    maxAge: SESSION_TTL_MS / 1000,
    secrets: [sessionSecret()],
  },
);

/** How stale `lastSeenAt` may grow before a request refreshes it. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60 * 1000;

export async function createSession(
  userId: number,
  {
    userAgent = null,
    now = Date.now(),
  }: { userAgent?: string | null; now?: number } = {},
) {
  const token = crypto.randomBytes(32).toString("base64url");
  await immediate(
    (tx) =>
      tx.insert(sessions).values({
        idHash: hashToken(token),
        publicId: crypto.randomBytes(16).toString("hex"),
        userId,
        userAgent: userAgent?.slice(0, 300) ?? null,
        lastSeenAt: new Date(now),
        expiresAt: new Date(now + SESSION_TTL_MS),
      }),
    { bookkeeping: true },
  );
  return { token, setCookie: await sessionCookie.serialize(token) };
}

function readToken(request: Request): string | null {
  return carriedSession(request)?.token ?? null;
}

type CarriedSession = { token: string; hash: string };
const carried = new WeakMap<Request, CarriedSession | null>();

/**
 * The session a request carries, its signature checked and its token hashed
 * once per request: a page asks twice (the session step's lookup and the
 * layout's header readings), and each ask cost an HMAC and a SHA-256, parts
 * a request pays for cold (docs/decisions/1170-a-request-runs-on-cold-caches.md).
 */
function carriedSession(request: Request): CarriedSession | null {
  const known = carried.get(request);
  if (known !== undefined) return known;
  const value = sessionCookie.read(request.headers.get("Cookie"));
  const session =
    typeof value === "string" && value.length > 0
      ? { token: value, hash: hashToken(value) }
      : null;
  carried.set(request, session);
  return session;
}

// Every page asks who the user is: one prepared statement, built once.
const userBySessionHash = preparedOnce(() =>
  db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder("hash")),
        gt(sessions.expiresAt, sql.placeholder("now")),
      ),
    )
    .prepare("session_userBySessionHash"),
);

export function findUserBySessionToken(
  token: string,
  now = Date.now(),
): Promise<User | null> {
  return findUserBySessionHash(hashToken(token), now);
}

async function findUserBySessionHash(
  hash: string,
  now = Date.now(),
): Promise<User | null> {
  const row = (await userBySessionHash().execute({ hash, now }))[0];
  if (!row) return null;
  // "Last seen" for the security page, written at most every few minutes so
  // reading a page stays a read. Outside the primary region a read writes
  // nothing: the touch waits for the person's next request there.
  if (
    writesHere() &&
    (!row.lastSeenAt ||
      now - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS)
  )
    await immediate(
      (tx) =>
        tx
          .update(sessions)
          .set({ lastSeenAt: new Date(now) })
          .where(eq(sessions.idHash, hash)),
      { bookkeeping: true },
    );
  return row.user;
}

export async function revokeSessionToken(token: string) {
  await immediate(
    (tx) => tx.delete(sessions).where(eq(sessions.idHash, hashToken(token))),
    { bookkeeping: true },
  );
}

export async function deleteExpiredSessions(now = Date.now()) {
  return changedRows(
    await immediate(
      (tx) => tx.delete(sessions).where(lt(sessions.expiresAt, new Date(now))),
      { bookkeeping: true },
    ),
  );
}

/**
 * What names the session this request carries (its token's hash, as the
 * sessions table keeps it), or null: an open event stream remembers it, so
 * the stream ends when the session does.
 */
export function sessionHashOf(request: Request): string | null {
  return carriedSession(request)?.hash ?? null;
}

/**
 * The response header naming the signed-in user's id (`-` for no one), read
 * by the service worker (public/sw.js spells it too).
 */
export const SIGNED_IN_USER_HEADER = "X-Fairshake-User";

// The page's own path and query, as React Router normalised it for the
// middleware (`url`): with `v8_passThroughRequests` (docs/decisions/archive/0835-loaders-get-the-request-as-it-came.md) a loader's
// `request.url` is the raw request's, so a client navigation's data request
// reads `/bet/7.data?_routes=…` there, which is no address to come back to.
export const returnToContext = createContext<string>();

// Who the user is lives one layer down, where the idempotency guard reads it
// too (app/models/requests/request-user.server.ts), set up once per request
// by app/pipeline/session.server.ts; pages and routes keep asking here.
export { getUser, type RequestArgs };

/**
 * Who the request's session belongs to, asked at most once per request and
 * only when something asks (the session step of app/pipeline/ sets it up).
 */
export function lookUpSessionUser(request: Request): Promise<User | null> {
  const session = carriedSession(request);
  return session ? findUserBySessionHash(session.hash) : Promise.resolve(null);
}

/** The guard of every protected page: a visitor is sent to /auth (302). */
export async function requireUser(args: RequestArgs): Promise<User> {
  const user = await getUser(args);
  if (!user) {
    const returnTo = args.context.get(returnToContext);
    throw redirect(
      `${href("/auth")}?return_to=${encodeURIComponent(returnTo)}`,
    );
  }
  return user;
}

/** The guard of every protected /api route: a visitor gets a 401. */
export async function requireApiUser(args: RequestArgs): Promise<User> {
  const user = await getUser(args);
  if (!user) throw new DomainError(401, "Authentication required");
  return user;
}

/**
 * Starts a fresh session for `userId`, ending the one the request carried:
 * the id is rotated at every login so a planted cookie is worthless. The
 * answer's Set-Cookie headers.
 */
export async function startSession(
  request: Request,
  userId: number,
): Promise<Headers> {
  const old = readToken(request);
  if (old) await revokeSessionToken(old);
  const { setCookie } = await createSession(userId, {
    userAgent: request.headers.get("User-Agent"),
  });
  const headers = new Headers();
  headers.append("Set-Cookie", setCookie);
  // In the demo, this browser may read this account's mail from now on.
  const demo = await rememberDemoAccount(request.headers.get("Cookie"), userId);
  if (demo) headers.append("Set-Cookie", demo);
  return headers;
}

export async function endSession(request: Request) {
  const token = readToken(request);
  if (token) await revokeSessionToken(token);
  return sessionCookie.serialize("", { maxAge: 0, expires: new Date(0) });
}

// ---- The security page (docs/product-rules.md#accounts) ----------------------------------------

export type SessionSummary = {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  userAgent: string | null;
  current: boolean;
};

/** The public id of the session this request carries, if it is live. */
export async function currentSessionId(
  request: Request,
  now = Date.now(),
): Promise<string | null> {
  const hash = sessionHashOf(request);
  if (!hash) return null;
  const row = (
    await db
      .select({ publicId: sessions.publicId })
      .from(sessions)
      .where(
        and(eq(sessions.idHash, hash), gt(sessions.expiresAt, new Date(now))),
      )
      .limit(1)
  )[0];
  return row?.publicId ?? null;
}

/** Where this person is signed in, most recently seen first. */
export async function listSessions(
  userId: number,
  currentId: string | null,
  now = Date.now(),
): Promise<SessionSummary[]> {
  return (
    await db
      .select()
      .from(sessions)
      .where(
        and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date(now))),
      )
  )
    .map((s) => ({
      id: s.publicId,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt ?? s.createdAt,
      userAgent: s.userAgent,
      current: s.publicId === currentId,
    }))
    .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime());
}

/**
 * Ends one of this person's sessions. Returns false when no such session is
 * theirs: another person's id is answered exactly like an unknown one.
 */
export async function revokeSession(
  userId: number,
  publicId: string,
): Promise<boolean> {
  return (
    changedRows(
      await immediate(
        (tx) =>
          tx
            .delete(sessions)
            .where(
              and(eq(sessions.userId, userId), eq(sessions.publicId, publicId)),
            ),
        { bookkeeping: true },
      ),
    ) > 0
  );
}

/** Ends every session of this person except `keepId` (all when null). */
export async function revokeOtherSessions(
  userId: number,
  keepId: string | null,
) {
  return changedRows(
    await immediate(
      (tx) =>
        tx
          .delete(sessions)
          .where(
            keepId
              ? and(eq(sessions.userId, userId), ne(sessions.publicId, keepId))
              : eq(sessions.userId, userId),
          ),
      { bookkeeping: true },
    ),
  );
}
