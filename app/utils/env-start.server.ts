// What start-up checks of the environment (server/start-up.ts): a
// configuration that must not run is refused with a clear message, and the
// session secret is made before the workers start.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  isDemoMode,
  isProduction,
  readEnvironment,
  regions,
  setting,
} from "./env.server";
import {
  configuredOrigin,
  databaseEngine,
  databasePath,
  stripeKeys,
} from "./env-settings.server";

/** Throws with a clear message for a configuration that must not run. */
export function assertEnvironment() {
  const env = readEnvironment();
  const keys = stripeKeys();
  if (keys && isDemoMode) {
    throw new Error(
      "DEMO_MODE=1 cannot be combined with Stripe keys: choose one payment provider.",
    );
  }
  if (
    keys &&
    (!keys.secretKey.startsWith("sk_test_") ||
      !keys.publishableKey.startsWith("pk_test_"))
  ) {
    // Paying the winner out with real money needs Stripe Connect, which
    // Fairshake does not have: live keys would take money it cannot pass on.
    throw new Error(
      "Only Stripe test-mode keys (sk_test_…, pk_test_…) are accepted.",
    );
  }
  if (isProduction && !isDemoMode && env.SMTP_URL && !configuredOrigin()) {
    // Mailed links would point at localhost (a demo may, and the tests do).
    throw new Error(
      "PUBLIC_ORIGIN is required when SMTP_URL is set in production (the links in mail).",
    );
  }
  if (isProduction && !isDemoMode && !env.SESSION_SECRET) {
    throw new Error("SESSION_SECRET is required when NODE_ENV=production.");
  }
  assertRegions();
  // A generated secret is made now, at start-up: with several workers the
  // first one writes it before the others start, so all sign cookies alike.
  sessionSecret();
}

function assertRegions() {
  const where = regions();
  if (!where) return;
  if (databaseEngine() !== "postgres")
    throw new Error(
      "PRIMARY_REGION needs PostgreSQL (a postgres:// DATABASE_URL): SQLite is one file on one machine's volume, so it runs in one region only.",
    );
  if (where.outside && !setting("DATABASE_REPLICA_URL"))
    throw new Error(
      `DATABASE_REPLICA_URL is required outside the primary region (FLY_REGION=${where.here}, PRIMARY_REGION=${where.primary}): reads there come from the region's replica.`,
    );
}

let cachedSecret: string | undefined;

/** SESSION_SECRET, or in demo/dev a generated one kept beside the database. */
export function sessionSecret(): string {
  if (cachedSecret) return cachedSecret;
  const configured = setting("SESSION_SECRET");
  if (configured) return (cachedSecret = configured);
  const file = path.join(
    path.dirname(path.resolve(databasePath())),
    "session-secret",
  );
  try {
    cachedSecret = fs.readFileSync(file, "utf8").trim();
  } catch {
    cachedSecret = crypto.randomBytes(32).toString("hex");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, cachedSecret, { mode: 0o600 });
  }
  return cachedSecret;
}
