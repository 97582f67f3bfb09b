// Each Vitest file gets its own fresh database, migrated like production,
// before any app module opens it: a SQLite file, or a PostgreSQL database
// when the run is the PostgreSQL half of the matrix (TEST_DATABASE=postgres).
import fs from "node:fs";
import { afterAll } from "vitest";
import { freshDatabaseEnv, onPostgres } from "./test-database";

const { env, dir } = await freshDatabaseEnv();
Object.assign(process.env, env);
process.env.RATE_LIMITS ??= "off";

const { sqlite, closeDatabase } = await import("~/db/connections.server");
if (!onPostgres()) {
  const { applyMigrations } = await import("~/db/migrate.server");
  applyMigrations(sqlite);
}

afterAll(async () => {
  await closeDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});
