// Each Vitest file gets its own fresh SQLite file, migrated like production,
// before any app module opens the database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-test-"));
process.env.DATABASE_PATH = path.join(dir, "test.db");
process.env.RATE_LIMITS ??= "off";

const { sqlite, closeDatabase } = await import("~/db/client.server");
const { applyMigrations } = await import("~/db/migrate.server");
applyMigrations(sqlite);

afterAll(async () => {
  await closeDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});
