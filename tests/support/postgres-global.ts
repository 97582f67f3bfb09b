// Vitest's global setup for the PostgreSQL half of the matrix (the
// "postgres" project, vitest.config.ts): one throwaway cluster for the whole run, with a
// migrated template database that each test file and test server copies
// (CREATE DATABASE … TEMPLATE takes milliseconds).
import {
  createDatabase,
  startCluster,
} from "../../scripts/lib/postgres-cluster.mjs";

export const TEMPLATE = "fairshake_template";

export default async function setup(project: {
  config: { env?: Record<string, unknown> };
}) {
  // Once per project: the SQLite one has nothing to start.
  if (project.config.env?.TEST_DATABASE !== "postgres") return;
  if (process.env.TEST_PG_ADMIN_URL) return; // started by scripts/test.mjs
  const cluster = await startCluster();
  process.env.TEST_PG_ADMIN_URL = cluster.adminUrl;
  const url = await createDatabase(cluster.adminUrl, TEMPLATE);
  const { applyPostgresMigrations } =
    await import("../../app/db/migrate.server");
  await applyPostgresMigrations(url);
  return () => cluster.stop();
}
