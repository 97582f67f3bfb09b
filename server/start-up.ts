// What runs once before the server takes its first request, called on
// server.ts's start path (never as a side effect of importing a module): the
// environment is checked, the database brought up to date (migrations),
// usernames from before the look-alike rule get their skeletons, and in demo
// mode the demo data is seeded.
import { sqlite } from "~/db/client.server";
import { applyMigrations } from "~/db/migrate.server";
import { seedDemoData } from "~/models/jobs/demo-seed.server";
import { fillUsernameSkeletons } from "~/models/accounts/user.server";
import { assertEnvironment, isDemoMode } from "~/utils/env.server";

export async function prepareToServe() {
  assertEnvironment();
  applyMigrations(sqlite);
  await fillUsernameSkeletons();
  if (isDemoMode) await seedDemoData();
}
