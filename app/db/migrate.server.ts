import type Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { readMigrationFiles } from "drizzle-orm/migrator";
import fs from "node:fs";
import path from "node:path";
import { migrationsFolder } from "~/utils/env-settings.server";
import { usingPrimary } from "./primary-scope.server";

export const MIGRATIONS_FOLDER = path.resolve(migrationsFolder());

const SNAPSHOTS_KEPT = 3;

/** PostgreSQL's migrations live beside SQLite's, in their own folder. */
export const PG_MIGRATIONS_FOLDER = path.join(MIGRATIONS_FOLDER, "pg");

export function applyMigrations(sqlite: Database.Database) {
  snapshotBeforeMigrating(sqlite);
  migrate(drizzle(sqlite), { migrationsFolder: MIGRATIONS_FOLDER });
}

// Any fixed number: every machine asks for the same lock.
const MIGRATION_LOCK = 7_412_001;

/**
 * Brings a PostgreSQL database up to date. Under an advisory lock on one
 * connection: machines that start at the same moment wait for the first,
 * then find nothing left to do (docs/decisions/1020-two-engines.md).
 */
export async function applyPostgresMigrations(
  url: string,
  /** More start-up work that must run once (the demo seed), still under the lock. */
  whileLocked?: () => Promise<unknown>,
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), {
      migrationsFolder: PG_MIGRATIONS_FOLDER,
    });
    // From any region: start-up's run-once work writes to the primary.
    if (whileLocked) await usingPrimary(whileLocked);
  } finally {
    await client
      .query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK])
      .catch(() => undefined);
    await client.end();
  }
}

/**
 * Before a migration changes a database that holds data, a consistent copy
 * of it as it was (`VACUUM INTO`), beside it: a migration that goes wrong
 * can be undone by hand (docs/operations.md#litestream). The newest three are kept.
 * Returns the copy's path, or null when nothing is pending or the database
 * is new.
 */
export function snapshotBeforeMigrating(
  sqlite: Database.Database,
  migrationsFolder = MIGRATIONS_FOLDER,
): string | null {
  if (sqlite.memory) return null;
  const tables = sqlite
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .pluck()
    .all() as string[];
  if (!tables.some((t) => t !== "__drizzle_migrations")) return null;
  // Drizzle runs every migration newer than the newest one recorded.
  const last = tables.includes("__drizzle_migrations")
    ? Number(
        sqlite
          .prepare('SELECT max(created_at) FROM "__drizzle_migrations"')
          .pluck()
          .get() ?? 0,
      )
    : 0;
  const pending = readMigrationFiles({ migrationsFolder }).filter(
    (m) => m.folderMillis > last,
  );
  if (pending.length === 0) return null;
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const target = `${sqlite.name}.pre-migration-${stamp}`;
  sqlite.prepare("VACUUM INTO ?").run(target);
  const dir = path.dirname(sqlite.name);
  const prefix = `${path.basename(sqlite.name)}.pre-migration-`;
  const old = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .sort()
    .slice(0, -SNAPSHOTS_KEPT);
  for (const f of old) fs.rmSync(path.join(dir, f), { force: true });
  return target;
}
