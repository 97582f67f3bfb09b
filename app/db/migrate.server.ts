import type Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import path from "node:path";

export const MIGRATIONS_FOLDER = path.resolve(
  process.env.MIGRATIONS_FOLDER ?? "./drizzle",
);

export function applyMigrations(sqlite: Database.Database) {
  migrate(drizzle(sqlite), { migrationsFolder: MIGRATIONS_FOLDER });
}
