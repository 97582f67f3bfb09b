// The database connections of this process, on either engine
// (docs/decisions/1020-two-engines.md): PostgreSQL when DATABASE_URL is a
// postgres:// URL (its pool, and outside the primary region the region's
// replica at DATABASE_REPLICA_URL: app/db/pg-pool.server.ts), otherwise the
// SQLite file at DATABASE_PATH (a write connection and a read-only one).
// The models do not use these: they read through `db` and change through
// `immediate` (app/db/transactions.server.ts).
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle as drizzleSqlite } from "drizzle-orm/better-sqlite3";
import {
  drizzle as drizzlePg,
  type NodePgDatabase,
} from "drizzle-orm/node-postgres";
import type pg from "pg";
import * as sqliteSchema from "./sqlite-schema";
import * as pgSchema from "./pg/schema";
import {
  ClientThatSaysUnavailable,
  lostOr,
  openPool,
  ReplicaClient,
  replicaErrorOr,
} from "./pg-pool.server";
import { replicaDatabaseUrl } from "~/utils/env.server";
import {
  databaseEngine,
  databasePath,
  databaseUrl,
} from "~/utils/env-settings.server";

export type Db = NodePgDatabase<typeof pgSchema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const engine = databaseEngine();

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
export const connections = openConnections();

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

/** The PostgreSQL pool, for what only PostgreSQL has (health, copy, locks). */
export const pool = connections.pool as pg.Pool;

/** Outside the primary region, the replica's pool; else undefined. */
export const replicaPool = connections.replicaPool;

/** The primary's drizzle handle: the pool, or SQLite's read connection. */
export const primaryDb = (engine === "postgres"
  ? drizzlePg(pool, { schema: pgSchema })
  : drizzleSqlite(connections.sqliteReader!, {
      schema: sqliteSchema,
    })) as unknown as Db;

/** The region's replica, outside the primary region on PostgreSQL. */
export const replicaDb = replicaPool
  ? drizzlePg(replicaPool, { schema: pgSchema })
  : undefined;

/** SQLite's write connection as drizzle sees it (the one `immediate` uses). */
export const writeDb =
  engine === "sqlite"
    ? (drizzleSqlite(sqlite, { schema: sqliteSchema }) as unknown as Tx)
    : undefined;

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
