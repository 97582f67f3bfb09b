import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/sqlite-schema.ts",
  out: "./drizzle",
});
