// Vitest's global setup for the PostgreSQL half of the matrix (the
// "postgres" project, vitest.config.ts): one throwaway cluster for the whole run, with a
// migrated template database that each test file and test server copies
// (CREATE DATABASE … TEMPLATE takes milliseconds).
import {
  createDatabase,
  startCluster,
} from "../../scripts/lib/postgres-cluster.mjs";

export const TEMPLATE = "fairshake_template";

declare module "vitest" {
  export interface ProvidedContext {
    /** The cluster's admin URL, for tests/support/test-database.ts. */
    pgAdminUrl: string;
  }
}

export default async function setup(project: {
  provide: (key: "pgAdminUrl", value: string) => void;
}) {
  // Vitest 5 runs a root global setup once for the run, not once per
  // project: start the cluster when the run has the PostgreSQL project
  // (TEST_DATABASE as vitest.config.ts reads it).
  const engine = process.env.TEST_DATABASE ?? "sqlite";
  if (engine !== "postgres" && engine !== "both") return;
  // The URL reaches the test workers through provide/inject, Vitest's
  // channel from global setup to tests.
  if (process.env.TEST_PG_ADMIN_URL) {
    project.provide("pgAdminUrl", process.env.TEST_PG_ADMIN_URL);
    return;
  }
  const cluster = await startCluster();
  process.env.TEST_PG_ADMIN_URL = cluster.adminUrl;
  project.provide("pgAdminUrl", cluster.adminUrl);
  const url = await createDatabase(cluster.adminUrl, TEMPLATE);
  const { applyPostgresMigrations } =
    await import("../../app/db/migrate.server");
  await applyPostgresMigrations(url);
  return () => cluster.stop();
}
