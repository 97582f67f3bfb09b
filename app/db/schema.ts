// The one door to the tables for the models. The tables are written once
// (./tables/, SQLite) with PostgreSQL twins (./pg/tables/); this picks the
// engine's set when the process starts (docs/decisions/1020-two-engines.md).
// The models are typed against the PostgreSQL twins: their query builders
// have only the asynchronous calls both engines share, so a SQLite-only
// `.get()` or `.run()` does not compile.
import * as sqliteTables from "./sqlite-schema";
import * as pgTables from "./pg/schema";
import { databaseEngine } from "~/utils/env-settings.server";

export type Tables = typeof pgTables;

const tables = (databaseEngine() === "postgres"
  ? pgTables
  : sqliteTables) as unknown as Tables;

export const {
  users,
  sessions,
  avatars,
  emailTokens,
  emailChanges,
  passkeys,
  passkeyChallenges,
  bets,
  betParticipants,
  betAccess,
  jobs,
  notificationDeliveries,
  notificationOptOuts,
  pushSubscriptions,
  demoMails,
  liveEvents,
  payments,
  demoPaymentIntents,
  processedWebhookEvents,
  ledgerEntries,
  idempotencyKeys,
  abuseWindows,
  settlements,
  betEvents,
  friendships,
  activityEvents,
  betMessages,
  betMessagePhotos,
} = tables;

export {
  VISIBILITIES,
  PROVIDERS,
  PAYMENT_STATUSES,
  OUTCOMES,
  RESOLUTIONS,
} from "./sqlite-schema";
export type {
  User,
  Visibility,
  Bet,
  Job,
  Payment,
  IdempotencyKeyRow,
  Outcome,
  Resolution,
  Settlement,
} from "./pg/schema";
