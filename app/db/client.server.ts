// The one database connection of this process. better-sqlite3 is synchronous,
// so a transaction never interleaves with another request's statements in
// this process; BEGIN IMMEDIATE takes the write lock up front so that other
// processes (the storm tests, a second machine) wait instead of failing late.
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema";
import { currentChangeWitness } from "./change-witness.server";
import { databasePath } from "~/utils/env.server";

export function openDatabase(file = databasePath()) {
  if (file !== ":memory:")
    fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  // NORMAL by default: in WAL mode every commit is atomic and survives a
  // process crash; only a power cut can lose the newest commits, never half of
  // one. Money commits (`immediate(fn, { durable: true })`) switch to FULL,
  // which fsyncs the WAL at commit: that payment, and everything before it,
  // survives power loss too (docs/decisions/0004-sqlite-durability.md).
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

const globalForDb = globalThis as unknown as {
  __fairshakeSqlite?: Database.Database;
};

export const sqlite = (globalForDb.__fairshakeSqlite ??= openDatabase());
export const db = drizzle(sqlite, { schema });
export type Db = typeof db;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Runs `fn` in one BEGIN IMMEDIATE transaction (money and membership).
 * `durable`: the commit is fsynced (synchronous=FULL) before it returns —
 * for settlements, payments and ledger entries.
 */
export function immediate<T>(
  fn: (tx: Tx) => T,
  options: {
    durable?: boolean;
    /** Bookkeeping, not a change the request is about (an abuse limit's count). */
    bookkeeping?: boolean;
  } = {},
): T {
  // A request sent with an idempotency key records, in this same
  // transaction, that its change committed (docs/product-rules.md#repeats).
  const witness = options.bookkeeping ? undefined : currentChangeWitness<Tx>();
  const body = witness
    ? (tx: Tx) => {
        const result = fn(tx);
        witness(tx);
        return result;
      }
    : fn;
  if (!options.durable) return db.transaction(body, { behavior: "immediate" });
  sqlite.pragma("synchronous = FULL");
  try {
    return db.transaction(body, { behavior: "immediate" });
  } finally {
    sqlite.pragma("synchronous = NORMAL");
  }
}

/**
 * A statement prepared on its first use — after migrations have run, not at
 * import — then reused: for the queries every page makes.
 */
export function preparedOnce<T>(build: () => T): () => T {
  let statement: T | undefined;
  return () => (statement ??= build());
}
