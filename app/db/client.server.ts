// The one database connection of this process. better-sqlite3 is synchronous,
// so a transaction never interleaves with another request's statements in
// this process; BEGIN IMMEDIATE takes the write lock up front so that other
// processes (the storm tests, a second machine) wait instead of failing late.
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema";

export function databasePath() {
  return process.env.DATABASE_PATH ?? "./data/fairshake.db";
}

export function openDatabase(file = databasePath()) {
  if (file !== ":memory:")
    fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  // FULL on the whole database, not just the ledger path: every write here is
  // small and rare next to reads, and a completed payment must survive power
  // loss together with the bet and settlement rows written in its transaction
  // (docs/decisions/0004-sqlite-durability.md).
  sqlite.pragma("synchronous = FULL");
  return sqlite;
}

const globalForDb = globalThis as unknown as {
  __fairshakeSqlite?: Database.Database;
};

export const sqlite = (globalForDb.__fairshakeSqlite ??= openDatabase());
export const db = drizzle(sqlite, { schema });
export type Db = typeof db;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Runs `fn` in one BEGIN IMMEDIATE transaction (money and membership). */
export function immediate<T>(fn: (tx: Tx) => T): T {
  return db.transaction(fn, { behavior: "immediate" });
}
