// The whole data model of Fairshake. Money is integer cents; instants are
// integer milliseconds since the epoch (UTC). Rules that the database can
// hold by itself (uniqueness, at most two seats per bet, one completed payment
// per bet, immutable ledger) are written here as constraints, so a bug in the
// model layer cannot break them.
//
// One module a domain in ./tables/; this file gathers the SQLite tables
// (drizzle.config.ts reads it; the models import "~/db/schema"). Relative paths
// there, not "~/": drizzle-kit reads them without the app's aliases.
export * from "./tables/accounts";
export * from "./tables/bets";
export * from "./tables/settlements";
export * from "./tables/payments";
export * from "./tables/social";
export * from "./tables/notifications";
export * from "./tables/jobs";
export * from "./tables/requests";
export * from "./tables/messages";
