import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Vitest runs without the React Router plugin: unit and model tests import
// modules directly; API tests talk HTTP to the built production server.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["app/**/*.test.ts", "tests/**/*.test.ts", "server/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**"],
    setupFiles: ["./tests/support/setup-db.ts"],
    globalSetup: ["./tests/support/postgres-global.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
