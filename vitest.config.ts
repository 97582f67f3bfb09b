import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// The PostgreSQL half of the matrix (TEST_DATABASE=postgres, run by
// `npm test` after the SQLite half): the model and API suites again, each
// file on its own database of a throwaway cluster. Left out: what is about
// SQLite itself (its migrations) (docs/decisions/1020-two-engines.md).
const postgres = process.env.TEST_DATABASE === "postgres";
const SQLITE_ONLY = ["app/db/migrate.server.test.ts"];

// Vitest runs without the React Router plugin: unit and model tests import
// modules directly; API tests talk HTTP to the built production server.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: postgres
      ? [
          "app/db/**/*.test.ts",
          "app/models/**/*.test.ts",
          "app/payments/**/*.test.ts",
          "tests/api/**/*.test.ts",
        ]
      : ["app/**/*.test.ts", "tests/**/*.test.ts", "server/**/*.test.ts"],
    exclude: [
      "tests/e2e/**",
      "node_modules/**",
      ...(postgres ? SQLITE_ONLY : []),
    ],
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
