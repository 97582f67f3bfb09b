// The database of this process, on either engine (docs/decisions/1020-two-engines.md):
// PostgreSQL when DATABASE_URL is a postgres:// URL, otherwise the SQLite file
// at DATABASE_PATH. The models see one asynchronous API for both:
//
// - `db` reads. On SQLite it is its own read-only connection, so a read never
//   sees another request's open transaction and a write outside a
//   transaction fails loudly; on PostgreSQL it is the pool. Inside an
//   `immediate` body it is that transaction, so a helper that reads through
//   `db` sees the transaction's own writes (and its locks) on both engines.
// - `immediate(fn)` changes. Every change to money or membership runs in one
//   of these, with conditional updates inside (docs/decisions/1021-async-model-layer.md):
//   SQLite: one write connection, one transaction at a time per process
//     (a queue), BEGIN IMMEDIATE retried without blocking the event loop
//     while another process holds the lock;
//   PostgreSQL: a SERIALIZABLE transaction, run again when PostgreSQL
//     reports that a concurrent one made it unsafe.
//
// Outside the primary region (PRIMARY_REGION, FLY_REGION) `db` reads from
// the region's replica (DATABASE_REPLICA_URL) and `immediate` refuses at
// once: the request is replayed in the primary region
// (docs/decisions/1050-regions-read-nearby-write-in-one.md).
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import {
  drizzle as drizzlePg,
  type NodePgDatabase,
} from "drizzle-orm/node-postgres";
import pg from "pg";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import * as sqliteSchema from "./sqlite-schema";
import * as pgSchema from "./pg/schema";
import { currentChangeWitness } from "./change-witness.server";
import { currentStandbyConfirmation } from "./standby-confirmation.server";
import { DatabaseUnavailableError } from "~/utils/errors";
import {
  primaryAskedFor,
  usingPrimary,
  writesHere,
} from "./primary-scope.server";
import {
  databaseEngine,
  databasePath,
  databasePoolSize,
  databaseUrl,
  lockWaitMs,
  replicaDatabaseUrl,
  standbyConfirmMs,
} from "~/utils/env.server";

export type Db = NodePgDatabase<typeof pgSchema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const engine = databaseEngine();

// How long a change waits for its turn (SQLite's write lock, PostgreSQL's
// pool or a retried transaction) before the request is answered 503.
const LOCK_WAIT_MS = lockWaitMs();

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
function lostOr(error: Error): Error {
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
function replicaErrorOr(error: Error): Error {
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

/** A pg client whose failed queries say so when the server is gone (`lostOr`). */
class ClientThatSaysUnavailable extends pg.Client {
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

class ReplicaClient extends ClientThatSaysUnavailable {
  protected override mark(error: Error): Error {
    return replicaErrorOr(error);
  }
}

// --- SQLite -----------------------------------------------------------------

export function openDatabase(
  file = databasePath(),
  { readonly = false }: { readonly?: boolean } = {},
) {
  if (file !== ":memory:" && !readonly)
    fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new Database(file, { readonly });
  if (!readonly) connection.pragma("journal_mode = WAL");
  connection.pragma("foreign_keys = ON");
  // The write connection never waits inside SQLite (that wait blocks the
  // event loop): `immediate` retries BEGIN on a timer instead. A read in WAL
  // mode does not wait for writers; the timeout covers WAL recovery only.
  connection.pragma(`busy_timeout = ${readonly ? 10_000 : 0}`);
  // NORMAL by default: in WAL mode every commit is atomic and survives a
  // process crash; only a power cut can lose the newest commits, never half of
  // one. Money commits (`immediate(fn, { durable: true })`) switch to FULL,
  // which fsyncs the WAL at commit (docs/decisions/0004-sqlite-durability.md).
  connection.pragma("synchronous = NORMAL");
  return connection;
}

type Connections = {
  sqlite?: Database.Database;
  sqliteReader?: Database.Database;
  pool?: pg.Pool;
  /** Outside the primary region: the region's read replica. */
  replicaPool?: pg.Pool;
  /** SQLite: the write connection's turn, shared like the connection itself. */
  writeQueue?: Promise<unknown>;
};
const connections = openConnections();

function openConnections(): Connections {
  if (engine === "postgres") {
    const replicaUrl = replicaDatabaseUrl();
    return {
      pool: openPool(databaseUrl()!, ClientThatSaysUnavailable, lostOr),
      replicaPool: replicaUrl
        ? openPool(replicaUrl, ReplicaClient, replicaErrorOr)
        : undefined,
    };
  }
  const sqlite = openDatabase();
  // A second, read-only connection (an in-memory database has only one).
  const sqliteReader = sqlite.memory
    ? sqlite
    : openDatabase(sqlite.name, { readonly: true });
  return { sqlite, sqliteReader };
}

/** The SQLite write connection, for what only SQLite has (checkpoints, backups). */
export const sqlite = connections.sqlite as Database.Database;

// --- PostgreSQL -------------------------------------------------------------

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

function openPool(
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
    connectionTimeoutMillis: LOCK_WAIT_MS,
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

/** The PostgreSQL pool, for what only PostgreSQL has (health, copy, locks). */
export const pool = connections.pool as pg.Pool;

/** Outside the primary region, the replica's pool; else undefined. */
export const replicaPool = connections.replicaPool;

// `usingPrimary` and `writesHere` (./primary-scope.server.ts), for the models.
export { usingPrimary, writesHere };

/** A change asked for outside the primary region: replayed there, never run here. */
function writeOutsidePrimary(): Error {
  return new DatabaseUnavailableError(
    new Error("a write outside the primary region is replayed there"),
  );
}

// --- The models' API --------------------------------------------------------

// The transaction a body runs in. `open` turns false at commit or rollback:
// work the body started and left running (a promise not awaited) keeps this
// store, and must then go back to plain reads.
const inTransaction = new AsyncLocalStorage<{ tx: Tx; open: boolean }>();

function openTransaction(): Tx | undefined {
  const scope = inTransaction.getStore();
  return scope?.open ? scope.tx : undefined;
}

const primaryDb = (engine === "postgres"
  ? drizzlePg(pool, { schema: pgSchema })
  : drizzleSqlite(connections.sqliteReader!, {
      schema: sqliteSchema,
    })) as unknown as Db;

const replicaDb = replicaPool
  ? drizzlePg(replicaPool, { schema: pgSchema })
  : undefined;

/** Where a read outside a transaction goes: the replica outside the primary region. */
function readDb(): Db {
  return replicaDb && !primaryAskedFor() ? replicaDb : primaryDb;
}

const writeDb =
  engine === "sqlite"
    ? (drizzleSqlite(sqlite, { schema: sqliteSchema }) as unknown as Tx)
    : undefined;

/** The reading handle: the read connection, or the open transaction. */
export const db: Db = new Proxy(primaryDb, {
  get(_target, property) {
    const target = openTransaction() ?? readDb();
    return Reflect.get(target, property, target);
  },
});

type ImmediateOptions = {
  /** The commit is on disk before it returns (settlements, payments, ledger). */
  durable?: boolean;
  /** Bookkeeping, not a change the request is about (an abuse limit's count). */
  bookkeeping?: boolean;
  /**
   * A change of money or membership: creating, joining, editing or deleting
   * a bet, proposing, approving, rejecting or ruling on a settlement, a
   * payment and its ledger entries, the demo provider's intents, closing an
   * account, the scheduler's settling. On PostgreSQL with a synchronous
   * standby (`synchronous_standby_names`) it commits with
   * `synchronous_commit` at least `on`, so it is acknowledged only once a
   * standby holds it; one the standby does not confirm within
   * STANDBY_CONFIRM_MS stays committed on the primary and the request is
   * answered 503 (`commitConfirmed`). Elsewhere it changes nothing.
   */
  moneyOrMembership?: boolean;
  /**
   * PostgreSQL only. "read committed" is for a body whose every guard is a
   * conditional update or a unique index (joining a bet: `status = 'pending'`
   * in the UPDATE). PostgreSQL holds those with row locks at any isolation,
   * so simultaneous bodies wait on the row and then see it changed, instead
   * of being cancelled by SERIALIZABLE's conflict checks and run again: under
   * a storm of joins, those checks cancelled each other for seconds on end
   * (docs/decisions/1021-async-model-layer.md). A body that reads, decides,
   * then writes something no condition guards (counting against a limit)
   * must stay SERIALIZABLE, the default.
   */
  isolation?: "serializable" | "read committed";
};

/** Runs `fn` as one transaction that writes; see the top of this file. */
export async function immediate<T>(
  fn: (tx: Tx) => Promise<T> | T,
  options: ImmediateOptions = {},
): Promise<T> {
  const outer = openTransaction();
  if (outer) return fn(outer); // a model called from another's transaction joins it
  if (!writesHere()) throw writeOutsidePrimary();
  // A request sent with an idempotency key records, in this same
  // transaction, that its change committed (docs/product-rules.md#repeats).
  const witness = options.bookkeeping ? undefined : currentChangeWitness<Tx>();
  const body = async (tx: Tx) => {
    const scope = { tx, open: true };
    try {
      return await inTransaction.run(scope, async () => {
        const result = await fn(tx);
        if (witness) await witness(tx);
        return result;
      });
    } finally {
      scope.open = false;
    }
  };
  return engine === "postgres"
    ? postgresTransaction(
        body,
        options.isolation ?? "serializable",
        options.moneyOrMembership ?? false,
      )
    : sqliteTransaction(body, options);
}

/** Runs `fn` (which starts background work) as if no transaction were open. */
export function outsideTransaction<T>(fn: () => T): T {
  return inTransaction.exit(fn);
}

/** True inside an `immediate` body. */
export function insideTransaction() {
  return openTransaction() !== undefined;
}

// SQLite: one transaction at a time on the write connection, in arrival order
// (the queue lives beside the connection).

function sqliteTransaction<T>(
  body: (tx: Tx) => Promise<T>,
  { durable = false }: ImmediateOptions,
): Promise<T> {
  const run = async () => {
    if (durable) sqlite.pragma("synchronous = FULL");
    try {
      await beginImmediate();
      try {
        const result = await body(writeDb!);
        sqlite.exec("COMMIT");
        return result;
      } catch (error) {
        if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        throw error;
      }
    } finally {
      if (durable) sqlite.pragma("synchronous = NORMAL");
    }
  };
  const result = (connections.writeQueue ?? Promise.resolve()).then(run, run);
  connections.writeQueue = result.catch(() => undefined);
  return result;
}

/**
 * A change that waited its whole budget for its turn (the lock, or retries)
 * is answered as the database out of reach: 503 with Retry-After, a
 * "try again", never a 500.
 */
function outOfTurns(error: Error): Error {
  return new DatabaseUnavailableError(error);
}

/** BEGIN IMMEDIATE, waiting on a timer while another process writes. */
async function beginImmediate() {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      sqlite.exec("BEGIN IMMEDIATE");
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "SQLITE_BUSY") throw error;
      if (Date.now() - started > LOCK_WAIT_MS) throw outOfTurns(error as Error);
      // 1, 2, 4 … 32 ms, with jitter so waiting processes do not march in step.
      const wait = Math.min(32, 2 ** attempt) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

// PostgreSQL: SERIALIZABLE, so a body that reads then writes is as safe as
// under SQLite's single writer; a serialization failure or deadlock runs the
// whole body again (it only touches the database, so that is safe).
// 25P02: a statement after one that failed, in a body that caught the
// failure (a serialization failure caught and passed over ends up here).
const RETRIABLE = new Set(["40001", "40P01", "25P02"]);
// As long as SQLite waits for its lock: past that, the request fails.
const RETRY_FOR_MS = LOCK_WAIT_MS;

async function postgresTransaction<T>(
  body: (tx: Tx) => Promise<T>,
  isolationLevel: "serializable" | "read committed",
  moneyOrMembership: boolean,
): Promise<T> {
  const pgDb = primaryDb;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      if (!moneyOrMembership)
        return await pgDb.transaction(body, { isolationLevel });
      return await synchronousTransaction(body, isolationLevel);
    } catch (error) {
      const code = postgresCode(error);
      if (!code || !RETRIABLE.has(code)) throw error;
      if (Date.now() - started > RETRY_FOR_MS) throw outOfTurns(error as Error);
      // Growing waits (2, 4 … 256 ms) with jitter: transactions that
      // collided do not collide again in step.
      const wait = Math.min(256, 2 ** attempt) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

// --- Changes of money or membership: kept by the synchronous standby -------
//
// PostgreSQL writes a commit on the primary first, then waits for the
// synchronous standby; that wait cannot be given a timeout. When it is
// cancelled the COMMIT still succeeds, with a warning, and the change stays
// on the primary only. So a watch cancels a wait that outlasts its budget
// and the request is answered 503 instead of success: a keyed write's
// answer is kept as usual, and its repeat is given it only once the standby
// confirms (app/pipeline/idempotency-guard.server.ts). The app never
// lowers `synchronous_commit` and never touches `synchronous_standby_names`.

/** The transaction being committed under watch, and the connection it runs on. */
const committing = new AsyncLocalStorage<{
  client?: ClientThatSaysUnavailable;
}>();

/**
 * Raises `synchronous_commit` to `on` for this transaction when a
 * synchronous standby is configured and the setting is weaker (never
 * lowers it); true when the commit will wait for a standby.
 */
const RAISE_SYNCHRONOUS_COMMIT = sql`SELECT
  current_setting('synchronous_standby_names') <> '' AS waits,
  CASE WHEN current_setting('synchronous_standby_names') <> ''
        AND current_setting('synchronous_commit') IN ('off', 'local', 'remote_write')
       THEN set_config('synchronous_commit', 'on', true) END AS raised`;

async function synchronousTransaction<T>(
  body: (tx: Tx) => Promise<T>,
  isolationLevel: "serializable" | "read committed",
): Promise<T> {
  const watched: { client?: ClientThatSaysUnavailable } = {};
  let waits = false;
  let watch: StandbyWatch | undefined;
  const result = await committing
    .run(watched, () =>
      primaryDb.transaction(
        async (tx) => {
          const [row] = await selectRows<{ waits: boolean }>(
            tx,
            RAISE_SYNCHRONOUS_COMMIT,
          );
          waits = row?.waits === true;
          const value = await body(tx);
          // COMMIT is next: from here the wait for the standby is watched.
          if (waits && watched.client) watch = watchCommit(watched.client);
          return value;
        },
        { isolationLevel },
      ),
    )
    .finally(() => watch?.stop());
  const confirmation = currentStandbyConfirmation();
  if (confirmation) confirmation.moneyOrMembership = true;
  if (watch && !watch.confirmed()) {
    console.warn(
      "postgres: the synchronous standby did not confirm a change in time; it is committed on the primary, and the request is answered 503",
    );
    if (confirmation) confirmation.unconfirmed = true;
  }
  return result;
}

type StandbyWatch = { stop(): void; confirmed(): boolean };

/**
 * Watches `client`'s COMMIT: past the request's budget for the standby
 * (STANDBY_CONFIRM_MS from its first wait), cancels the wait, looking again
 * every 200 ms until the COMMIT returns. Cancels only a backend that is
 * waiting for synchronous replication, so no other statement is hit. A
 * wait that cannot be cancelled within another budget (the address now
 * leads to another node, and the old primary waits on, cut off) ends with
 * the connection: the COMMIT fails as the database out of reach.
 */
function watchCommit(client: ClientThatSaysUnavailable): StandbyWatch {
  const confirmation = currentStandbyConfirmation();
  const now = Date.now();
  const deadline = confirmation?.deadline ?? now + standbyConfirmMs();
  if (confirmation) confirmation.deadline = deadline;
  const pid = (client as unknown as { processID: number }).processID;
  client.standbyWaitCancelled = false;
  let stopped = false;
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  const cutAt = deadline + standbyConfirmMs();
  const look = async () => {
    if (stopped) return;
    if (Date.now() > cutAt) {
      cancelled = true;
      void client.end().catch(() => undefined);
      return;
    }
    cancelled = (await cancelStandbyWait(pid)) || cancelled;
    if (!stopped) timer = setTimeout(look, 200).unref();
  };
  timer = setTimeout(look, Math.max(0, deadline - now)).unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    confirmed: () => !cancelled && !client.standbyWaitCancelled,
  };
}

/**
 * Cancels backend `pid`'s wait for the synchronous standby, on a connection
 * of its own (the pool's may all be waiting); true when it did. Any failure
 * is false: a primary that cannot be reached fails the COMMIT itself.
 */
async function cancelStandbyWait(pid: number): Promise<boolean> {
  const client = new pg.Client({
    connectionString: databaseUrl(),
    connectionTimeoutMillis: 2_000,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ cancelled: boolean }>(
      `SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity
        WHERE pid = $1 AND wait_event = 'SyncRep'`,
      [pid],
    );
    return rows[0]?.cancelled === true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The SQLSTATE of a PostgreSQL error, looked for through drizzle's wrapping. */
export function postgresCode(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code))
      return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * A statement prepared on its first use — after migrations have run, not at
 * import — then reused: for the queries every page makes. PostgreSQL names
 * prepared statements, so each gets one. Inside a transaction it is built
 * again on that transaction (through `db`), so it sees the transaction's writes.
 */
export function preparedOnce<T>(build: () => T): () => T {
  let statement: T | undefined;
  // Built again, not kept, where `db` is not the usual reader: a
  // transaction, or the primary asked for outside the primary region.
  const unusual = () =>
    openTransaction() !== undefined ||
    (replicaDb !== undefined && primaryAskedFor());
  return () => (unusual() ? build() : (statement ??= build()));
}

/** Closes the connections (a graceful stop, the end of a test file). */
export async function closeDatabase() {
  if (engine === "postgres") {
    await Promise.all([pool.end(), replicaPool?.end()]);
    return;
  }
  await connections.writeQueue;
  if (connections.sqliteReader !== sqlite) connections.sqliteReader?.close();
  sqlite.close();
}

/** How many rows an awaited insert, update or delete changed, on either engine. */
export function changedRows(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return Number(r.changes ?? r.rowCount ?? 0);
}

/** The rows of a raw SQL query, on either engine (raw SQL is written to run on both). */
export async function selectRows<T>(runner: Db | Tx, query: SQL): Promise<T[]> {
  if (engine === "postgres")
    return (await (runner as Db).execute(query)).rows as T[];
  return (runner as unknown as { all<R>(q: SQL): R[] }).all<T>(query);
}

/** Runs a raw SQL statement that returns no rows, on either engine. */
export async function executeSql(runner: Db | Tx, query: SQL): Promise<number> {
  if (engine === "postgres")
    return (await (runner as Db).execute(query)).rowCount ?? 0;
  return (runner as unknown as { run(q: SQL): { changes: number } }).run(query)
    .changes;
}

/**
 * `column IN (ids)` with all the ids bound as one parameter, so one prepared
 * statement serves any number of them; bind with `idListParam`.
 */
export function inIdList(column: SQLWrapper, placeholder: string): SQL {
  return engine === "postgres"
    ? sql`${column} = any(${sql.placeholder(placeholder)}::int[])`
    : sql`${column} in (select value from json_each(${sql.placeholder(placeholder)}))`;
}

/**
 * A column holding a JSON array of one object per row of `fromWhere` (a
 * correlated `FROM … WHERE …`), read back as objects on either engine:
 * json_agg or json_group_array. The order of the rows is not promised.
 */
export function jsonRowsColumn<Row>(
  fields: Record<string, SQLWrapper>,
  fromWhere: SQL,
): SQL<Row[]> {
  const pairs = sql.join(
    // Keys as literals: PostgreSQL cannot type a bound key of json_build_object.
    Object.entries(fields).map(([name, value]) => {
      if (!/^\w+$/.test(name)) throw new Error(`Bad JSON key ${name}`);
      return sql`${sql.raw(`'${name}'`)}, ${value}`;
    }),
    sql`, `,
  );
  const column =
    engine === "postgres"
      ? sql`coalesce((select json_agg(json_build_object(${pairs})) ${fromWhere}), '[]'::json)`
      : sql`coalesce((select json_group_array(json_object(${pairs})) ${fromWhere}), '[]')`;
  // node-postgres parses json itself; SQLite hands back text.
  return column.mapWith((value: unknown) =>
    typeof value === "string" ? (JSON.parse(value) as Row[]) : (value as Row[]),
  );
}

export function idListParam(ids: number[]): unknown {
  return engine === "postgres" ? ids : JSON.stringify(ids);
}

/** Where `needle` first occurs in `text` (1-based, 0 when absent): instr() or strpos(). */
export function textPosition(text: SQLWrapper, needle: unknown): SQL {
  return engine === "postgres"
    ? sql`strpos(${text}, ${needle})`
    : sql`instr(${text}, ${needle})`;
}
