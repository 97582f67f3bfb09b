// PostgreSQL's connections (app/db/connections.server.ts opens them): a
// client and a pool whose errors say when the server is out of reach or is
// not the primary, so the doors answer 503 rather than 500, and the pool
// drops a connection that found a standby (docs/decisions/1020-two-engines.md).
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { DatabaseUnavailableError } from "~/utils/errors";
import { databasePoolSize, lockWaitMs } from "~/utils/env-settings.server";

// Lost connections: refused, reset, ended by the server (admin shutdown,
// crash, starting up) or a pool that could not connect in time.
const LOST_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/**
 * An error that says the server answering is not (or no longer) the
 * primary: a write refused as read-only (25006), or a serializable
 * transaction refused by a hot standby (0A000). After a failover the old
 * primary may come back as a standby at an address that led to the primary,
 * or a connection may reach a standby still being promoted: the write is
 * answered as the database out of reach, and the connection is dropped so
 * the next one is opened to wherever the address leads now.
 */
function notPrimary(error: Error): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e.code === READ_ONLY_TRANSACTION ||
    (e.code === "0A000" && /hot standby/.test(e.message ?? ""))
  );
}

/**
 * `error`, or a DatabaseUnavailableError carrying it when it says the server
 * cannot be reached, or is not the primary: the doors answer it 503
 * (`unwrapDomainError`, app/utils/errors.ts).
 */
export function lostOr(error: Error): Error {
  if (error instanceof DatabaseUnavailableError) return error;
  const e = error as { code?: string; message?: string };
  const lost =
    (e.code !== undefined && LOST_CODES.has(e.code)) ||
    notPrimary(error) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/.test(
      e.message ?? "",
    );
  return lost ? new DatabaseUnavailableError(error) : error;
}

/**
 * A replica's errors: lost as on the primary, and noted for the region's
 * middleware (`replicaLostRecently`); a write that reached it (25006,
 * read-only transaction) is answered like a lost connection, so no door
 * answers it 500, and the middleware replays the request in the primary region.
 */
export function replicaErrorOr(error: Error): Error {
  const marked = lostOr(error);
  if (marked instanceof DatabaseUnavailableError)
    replicaHealth.lostAt = Date.now();
  else if ((error as { code?: string }).code === READ_ONLY_TRANSACTION)
    return new DatabaseUnavailableError(error);
  return marked;
}

/** PostgreSQL's SQLSTATE for a write sent to a hot standby. */
const READ_ONLY_TRANSACTION = "25006";

/** When this process last failed to reach its region's replica. */
const replicaHealth = { lostAt: 0 };

/** True when the replica could not be reached within the last `withinMs`. */
export function replicaLostRecently(withinMs: number, now = Date.now()) {
  return now - replicaHealth.lostAt < withinMs;
}

/**
 * The transaction being committed under watch, and the connection it runs on
 * (app/db/synchronous-commit.server.ts): a client's query notes itself here.
 */
export const committing = new AsyncLocalStorage<{
  client?: ClientThatSaysUnavailable;
}>();

/** A pg client whose failed queries say so when the server is gone (`lostOr`). */
export class ClientThatSaysUnavailable extends pg.Client {
  /** Its server turned out not to be the primary: the pool drops it on release. */
  leftPrimary = false;
  /** The server said it stopped waiting for the synchronous standby (`commitConfirmed`). */
  standbyWaitCancelled = false;

  /** How this client's errors are marked (the replica's notes its loss too). */
  protected mark(error: Error): Error {
    if (notPrimary(error)) this.leftPrimary = true;
    return lostOr(error);
  }

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // The pool listens for errors only while a client is idle. A client that
    // is checked out but between queries (a transaction awaiting the next
    // step) would otherwise crash the process with an unhandled 'error' when
    // the server goes away; its next query fails and is answered 503, and
    // the pool discards it on release.
    this.on("error", (error) => {
      console.warn(`postgres: connection in use lost (${error.message})`);
    });
    // A commit whose wait for the synchronous standby was cancelled (by
    // `commitConfirmed`'s watch, or by anyone) still commits, with this
    // warning: the change is on the primary only.
    this.on("notice", (notice: { message?: string }) => {
      if (/wait for synchronous replication/.test(notice.message ?? ""))
        this.standbyWaitCancelled = true;
    });
  }

  // pg's query has many overloads; both of its forms (a promise, or a
  // callback as the last argument) are passed through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const watched = committing.getStore();
    if (watched && !watched.client) watched.client = this;
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (error: Error | undefined, ...rest: unknown[]) =>
        last(error && this.mark(error), ...rest);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return (super.query as any)(...args);
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const result = (super.query as any)(...args);
    return result && typeof result.catch === "function"
      ? result.catch((error: Error) => {
          throw this.mark(error);
        })
      : result;
  }
}

export class ReplicaClient extends ClientThatSaysUnavailable {
  protected override mark(error: Error): Error {
    return replicaErrorOr(error);
  }
}

// int8 (counts, sums, instants) and numeric arrive as JavaScript numbers, as
// SQLite gives them: every value this app stores fits 2^53.
function numbers(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: string) =>
      oid === 20 || oid === 1700
        ? (value: string) => Number(value)
        : pg.types.getTypeParser(
            oid,
            format as "text",
          )) as pg.CustomTypesConfig["getTypeParser"],
  };
}

export function openPool(
  connectionString: string,
  Client: typeof ClientThatSaysUnavailable,
  mark: (error: Error) => Error,
) {
  // Set globally as well: drizzle passes its own per-query type parsers,
  // which fall back to these.
  pg.types.setTypeParser(20, Number);
  pg.types.setTypeParser(1700, Number);
  const pool = new pg.Pool({
    Client,
    connectionString,
    max: databasePoolSize(),
    // Waiting for a free connection is a queue under load, not an outage
    // (a server that is down refuses at once): as long as SQLite waits for
    // its lock before the request is answered 503.
    connectionTimeoutMillis: lockWaitMs(),
    idleTimeoutMillis: 30_000,
    types: numbers(),
  });
  // Without a listener, an idle client's error (the server restarting)
  // would crash the process; the pool drops that client and reconnects.
  pool.on("error", (error) => {
    console.warn(`postgres: idle connection lost (${error.message})`);
  });
  // A server that cannot be reached is a 503 for the request, not a 500.
  // Every query and every checkout passes through `connect` (pg-pool's own
  // `query` calls it with a callback) and a client's `query`. pg-pool's own
  // `query` drops a client whose query failed; a checked-out client (a
  // transaction's) that found a server other than the primary is dropped
  // on its release here.
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, ...rest: unknown[]) => void,
  ) => Promise<pg.PoolClient> | void;
  // pg-pool's `query` answers a connection lost mid-query (the client's
  // 'error' event) with the bare error, past the client's own marking.
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  Object.assign(pool, {
    query: (...args: unknown[]) => {
      const last = args[args.length - 1];
      if (typeof last === "function") {
        args[args.length - 1] = (
          error: Error | undefined,
          ...rest: unknown[]
        ) => (last as (...a: unknown[]) => void)(error && mark(error), ...rest);
        return query(...args);
      }
      return (query(...args) as Promise<unknown>).catch((error: Error) => {
        throw mark(error);
      });
    },
    connect: (
      callback?: (error: Error | undefined, ...rest: unknown[]) => void,
    ) =>
      callback
        ? connect((error, ...rest) => callback(error && mark(error), ...rest))
        : (connect() as Promise<pg.PoolClient>).then(
            dropWhenNotPrimary,
            (error: Error) => {
              throw mark(error);
            },
          ),
  });
  return pool;
}

/** Releases `client` as a broken one when its server was not the primary. */
function dropWhenNotPrimary(client: pg.PoolClient): pg.PoolClient {
  const release = client.release.bind(client);
  client.release = (error?: Error | boolean) =>
    release(
      error ??
        ((client as unknown as ClientThatSaysUnavailable).leftPrimary ||
          undefined),
    );
  return client;
}
