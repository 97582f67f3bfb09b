// Reading and changing, for the models, on either engine:
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
// Both read three ambient scopes (AsyncLocalStorage), never arguments:
//
// 1. The open transaction (`inTransaction`, below): inside an `immediate`
//    body, `db` is that transaction and a nested `immediate` joins it.
// 2. The primary scope (app/db/primary-scope.server.ts): outside the primary
//    region (PRIMARY_REGION, FLY_REGION) `db` reads from the region's replica
//    (DATABASE_REPLICA_URL) and `immediate` refuses at once, so the request
//    is replayed in the primary region, unless the work runs in
//    `usingPrimary` (docs/decisions/1050-regions-read-nearby-write-in-one.md).
// 3. The request's keyed write (app/db/change-witness.server.ts and
//    app/db/standby-confirmation.server.ts, set by the idempotency guard):
//    its witness writes in the same transaction as the change, and a change
//    of money or membership notes whether the standby confirmed it.
import { AsyncLocalStorage } from "node:async_hooks";
import { currentChangeWitness } from "./change-witness.server";
import { DatabaseUnavailableError } from "~/utils/errors";
import { primaryAskedFor, writesHere } from "./primary-scope.server";
import { lockWaitMs } from "~/utils/env-settings.server";
import {
  connections,
  engine,
  primaryDb,
  replicaDb,
  sqlite,
  writeDb,
  type Db,
  type Tx,
} from "./connections.server";
import { postgresCode } from "./dialect.server";
import { synchronousTransaction } from "./synchronous-commit.server";

// How long a change waits for its turn (SQLite's write lock, PostgreSQL's
// pool or a retried transaction) before the request is answered 503.
const LOCK_WAIT_MS = lockWaitMs();

/** A change asked for outside the primary region: replayed there, never run here. */
function writeOutsidePrimary(): Error {
  return new DatabaseUnavailableError(
    new Error("a write outside the primary region is replayed there"),
  );
}

// The transaction a body runs in. `open` turns false at commit or rollback:
// work the body started and left running (a promise not awaited) keeps this
// store, and must then go back to plain reads.
const inTransaction = new AsyncLocalStorage<{ tx: Tx; open: boolean }>();

function openTransaction(): Tx | undefined {
  const scope = inTransaction.getStore();
  return scope?.open ? scope.tx : undefined;
}

/** Where a read outside a transaction goes: the replica outside the primary region. */
function readDb(): Db {
  return replicaDb && !primaryAskedFor() ? replicaDb : primaryDb;
}

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
