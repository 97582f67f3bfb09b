// What runs once before the server takes its first request, called on
// server/serve.ts's start path (never as a side effect of importing a module): the
// environment is checked, the database brought up to date (migrations),
// usernames from before the look-alike rule get their skeletons, and in demo
// mode the demo data is seeded.
import { engine, sqlite } from "~/db/connections.server";
import { applyMigrations, applyPostgresMigrations } from "~/db/migrate.server";
import { seedDemoData } from "~/models/cross-domain/demo-seed.server";
import { fillUsernameSkeletons } from "~/models/accounts/user.server";
import { isDemoMode } from "~/utils/env.server";
import { databaseUrl } from "~/utils/env-settings.server";
import { assertEnvironment } from "~/utils/env-start.server";

export async function prepareToServe() {
  assertEnvironment();
  const once = async () => {
    await fillUsernameSkeletons();
    if (isDemoMode) await seedDemoData();
  };
  // On PostgreSQL several machines may start at once: one migrates and
  // seeds while the others wait on the lock, then find it done.
  if (engine === "postgres")
    await applyPostgresMigrations(databaseUrl()!, once);
  else {
    applyMigrations(sqlite);
    await once();
  }
}
