import { availableParallelism } from "node:os";
import {
  defineConfig,
  type TestProjectInlineConfiguration,
} from "vitest/config";
import { fileURLToPath } from "node:url";

// The engines a run covers (docs/decisions/1020-two-engines.md): SQLite by
// default; TEST_DATABASE=postgres for the PostgreSQL half of the matrix;
// TEST_DATABASE=both (what `npm test` runs) for both halves in one run, as
// two projects sharing the workers, so one half's last slow files overlap
// the other's. The PostgreSQL half runs the model and API suites again, each
// file on its own database of a throwaway cluster; left out is what is about
// SQLite itself (its migrations).
const engine = process.env.TEST_DATABASE ?? "sqlite";
const SQLITE_ONLY = ["app/db/migrate.server.test.ts"];
const EXCLUDE = ["tests/e2e/**", "node_modules/**"];

const sqlite: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "sqlite",
    include: ["app/**/*.test.ts", "tests/**/*.test.ts", "server/**/*.test.ts"],
    exclude: EXCLUDE,
    env: { TEST_DATABASE: "sqlite" },
  },
};
const postgres: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: "postgres",
    include: [
      "app/db/**/*.test.ts",
      "app/models/**/*.test.ts",
      "app/pipeline/**/*.test.ts",
      "app/payments/**/*.test.ts",
      "tests/api/**/*.test.ts",
    ],
    exclude: [...EXCLUDE, ...SQLITE_ONLY],
    env: { TEST_DATABASE: "postgres" },
  },
};

// Vitest runs without the React Router plugin: unit and model tests import
// modules directly; API tests talk HTTP to the built production server.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    projects:
      engine === "both"
        ? [postgres, sqlite]
        : [engine === "postgres" ? postgres : sqlite],
    setupFiles: ["./tests/support/setup-db.ts"],
    globalSetup: ["./tests/support/postgres-global.ts"],
    pool: "forks",
    // Vitest's default is one file fewer than the cores: one at a time on
    // CI's two. The API files mostly wait on their servers (other
    // processes), so two at a time keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
