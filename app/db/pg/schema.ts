// The PostgreSQL tables: twins of ../tables/ written by
// scripts/db/pg-tables.mjs (drizzle.pg.config.ts reads this file).
export * from "./tables/accounts";
export * from "./tables/bets";
export * from "./tables/settlements";
export * from "./tables/payments";
export * from "./tables/social";
export * from "./tables/notifications";
export * from "./tables/jobs";
export * from "./tables/requests";
export * from "./tables/messages";
