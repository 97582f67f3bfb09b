// Where a test's database lives: a fresh SQLite file, or with
// TEST_DATABASE=postgres a fresh copy of the migrated template database on
// the run's cluster (tests/support/postgres-global.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { createDatabase } from "../../scripts/lib/postgres-cluster.mjs";

export const onPostgres = () => process.env.TEST_DATABASE === "postgres";

/** The environment that points a process at a new, migrated (on PostgreSQL) database. */
export async function freshDatabaseEnv(): Promise<{
  env: Record<string, string>;
  dir: string;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fairshake-test-"));
  if (!onPostgres())
    return { env: { DATABASE_PATH: path.join(dir, "test.db") }, dir };
  const admin = process.env.TEST_PG_ADMIN_URL ?? inject("pgAdminUrl");
  if (!admin) throw new Error("TEST_DATABASE=postgres needs the global setup");
  const name = `t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const url = await createDatabase(admin, name, {
    template: "fairshake_template",
  });
  return {
    env: { DATABASE_URL: url, DATABASE_PATH: path.join(dir, "unused.db") },
    dir,
  };
}
