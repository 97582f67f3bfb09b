import { defineConfig } from "drizzle-kit";

// PostgreSQL's migrations, from the twins of the SQLite tables
// (scripts/db/pg-tables.mjs writes them; `npm run db:generate` runs both).
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/pg/schema.ts",
  out: "./drizzle/pg",
});
