// Environment, read once and checked at start-up (docs/operations.md#environment).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const isProduction = process.env.NODE_ENV === "production";
export const isDemoMode = process.env.DEMO_MODE === "1";
export const rateLimitsOn = process.env.RATE_LIMITS !== "off";

/** The SQLite file: the connection opens it, secrets and keys live beside it. */
export function databasePath() {
  return process.env.DATABASE_PATH ?? "./data/fairshake.db";
}

/** A `postgres://` (or `postgresql://`) DATABASE_URL selects PostgreSQL; otherwise SQLite at DATABASE_PATH. */
export function databaseUrl(): string | undefined {
  const url = process.env.DATABASE_URL?.trim();
  return url && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}

export type DatabaseEngine = "sqlite" | "postgres";

export function databaseEngine(): DatabaseEngine {
  return databaseUrl() ? "postgres" : "sqlite";
}

/**
 * The address people reach the app at, for links that leave the page (mail,
 * share tags). PUBLIC_ORIGIN, else on Fly the app's own `*.fly.dev` name
 * (Fly sets FLY_APP_NAME). Mail never uses the request's Host header: a
 * reset link built from it could be pointed at someone else's server.
 */
export function configuredOrigin(): string | null {
  if (process.env.PUBLIC_ORIGIN)
    return process.env.PUBLIC_ORIGIN.replace(/\/$/, "");
  if (process.env.FLY_APP_NAME)
    return `https://${process.env.FLY_APP_NAME}.fly.dev`;
  return null;
}

export function publicOrigin(request?: Request): string {
  const configured = configuredOrigin();
  if (configured) return configured;
  if (request) return new URL(request.url).origin;
  return `http://localhost:${process.env.PORT ?? 3000}`;
}

export function stripeKeys() {
  const secretKey = process.env.STRIPE_SECRET_KEY;
  const publishableKey = process.env.STRIPE_PUBLISHABLE_KEY;
  if (!secretKey || !publishableKey) return null;
  return {
    secretKey,
    publishableKey,
    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET,
  };
}

/** Throws with a clear message for a configuration that must not run. */
export function assertEnvironment() {
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
  if (
    isProduction &&
    !isDemoMode &&
    process.env.SMTP_URL &&
    !configuredOrigin()
  ) {
    // Mailed links would point at localhost (a demo may, and the tests do).
    throw new Error(
      "PUBLIC_ORIGIN is required when SMTP_URL is set in production (the links in mail).",
    );
  }
  if (isProduction && !isDemoMode && !process.env.SESSION_SECRET) {
    throw new Error("SESSION_SECRET is required when NODE_ENV=production.");
  }
  // A generated secret is made now, at start-up: with several workers the
  // first one writes it before the others start, so all sign cookies alike.
  sessionSecret();
}

let cachedSecret: string | undefined;

/** SESSION_SECRET, or in demo/dev a generated one kept beside the database. */
export function sessionSecret(): string {
  if (cachedSecret) return cachedSecret;
  if (process.env.SESSION_SECRET)
    return (cachedSecret = process.env.SESSION_SECRET);
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

// --- Settings read where they are used ----------------------------------------
// Each is read when called, so a module that reads one at its own load still
// does, and one that reads it on every use still does.

/** A positive number from the environment, else the fallback. */
function positiveNumber(name: string): number | null {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * SQLITE_LOCK_WAIT_MS: how long a change waits for its turn (SQLite's write
 * lock; on PostgreSQL a pool connection and retried transactions) before
 * the request is answered 503 (10 s).
 */
export const lockWaitMs = () => positiveNumber("SQLITE_LOCK_WAIT_MS") ?? 10_000;

/** DATABASE_POOL_SIZE: PostgreSQL connections per process (10). */
export const databasePoolSize = () =>
  Math.floor(positiveNumber("DATABASE_POOL_SIZE") ?? 10);

/** SMTP_URL: mail's transport (`smtp://` or `smtps://`); unset, no transport. */
export const smtpUrl = () => process.env.SMTP_URL;

/** MAIL_FROM: the sender of every mail. */
export const mailFrom = () =>
  process.env.MAIL_FROM ?? "Fairshake <no-reply@localhost>";

/** PUSH_ENDPOINT_HOSTS: comma-separated push services allowed; null, the defaults. */
export function pushEndpointHosts(): string[] | null {
  const configured = process.env.PUSH_ENDPOINT_HOSTS;
  return configured
    ? configured
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : null;
}

/** VAPID_SUBJECT, VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: the push keys. */
export const vapidEnvironment = () => ({
  subject: process.env.VAPID_SUBJECT ?? "mailto:no-reply@localhost",
  publicKey: process.env.VAPID_PUBLIC_KEY,
  privateKey: process.env.VAPID_PRIVATE_KEY,
});

/** OUTBOX_POLL_MS: how often the outbox looks for due retries (2 s). */
export const outboxPollMs = () => Number(process.env.OUTBOX_POLL_MS) || 2_000;

/** OUTBOX_RETRY_BASE_MS: the outbox's first retry delay (5 s). */
export const outboxRetryBaseMs = () =>
  positiveNumber("OUTBOX_RETRY_BASE_MS") ?? 5_000;

/**
 * LIVE_HEARTBEAT_MS: how often an open event stream gets a comment line, so
 * no proxy (Fly's included) closes it as idle (15 s; tests shorten it).
 */
export const liveHeartbeatMs = () =>
  positiveNumber("LIVE_HEARTBEAT_MS") ?? 15_000;

/** LIVE_POLL_MS: how often each process reads new live events (250 ms). */
export const livePollMs = () => positiveNumber("LIVE_POLL_MS") ?? 250;

/** PASSWORD_RESET_TTL_S: how long a reset link works (an hour; tests shorten it). */
export const passwordResetTtlMs = () => {
  const seconds = positiveNumber("PASSWORD_RESET_TTL_S");
  return seconds === null ? 60 * 60_000 : seconds * 1000;
};

/** VITEST: set by the test runner, which starts no background work. */
export const underVitest = () => Boolean(process.env.VITEST);

/** MIGRATIONS_FOLDER: where the migrations are (./drizzle). */
export const migrationsFolder = () =>
  process.env.MIGRATIONS_FOLDER ?? "./drizzle";

/** BENCH_BARE=1: the bench's bare page answers (404 otherwise). */
export const benchBareOn = () => process.env.BENCH_BARE === "1";

/** PORT: the port the server listens on (3000). */
export const port = () => Number(process.env.PORT ?? 3000);

/** LOG_LEVEL: pino's level (info). */
export const logLevel = () => process.env.LOG_LEVEL ?? "info";

/**
 * METRICS_HOST: where /metrics listens. On Fly the machine's private
 * network address (`fly-local-6pn`), elsewhere loopback.
 */
export const metricsHostSetting = () =>
  process.env.METRICS_HOST ??
  (process.env.FLY_APP_NAME ? "fly-local-6pn" : "127.0.0.1");

/** METRICS_PORT: the metrics port (9091), "off" for none. */
export const metricsPortSetting = () => process.env.METRICS_PORT ?? "9091";

/** STOP_GRACE_MS: how long a stop waits for requests already accepted (10 s). */
export const stopGraceMs = () => Number(process.env.STOP_GRACE_MS ?? 10_000);

/** FAIRSHAKE_UNDER_LITESTREAM: set by the launcher for the server it runs under Litestream. */
export const underLitestream = () =>
  Boolean(process.env.FAIRSHAKE_UNDER_LITESTREAM);

/** LITESTREAM_REPLICA_URL: where Litestream streams the database; unset, no replica. */
export const litestreamReplicaUrl = () => process.env.LITESTREAM_REPLICA_URL;

/** LITESTREAM_BIN: the litestream binary, else the package's or the PATH's. */
export const litestreamBin = () => process.env.LITESTREAM_BIN;

/** LITESTREAM_SYNC_INTERVAL: how often Litestream ships commits (1s). */
export const litestreamSyncInterval = () =>
  process.env.LITESTREAM_SYNC_INTERVAL ?? "1s";

/** AWS_ENDPOINT_URL_S3 and AWS_REGION, which Fly's Tigris storage sets. */
export const s3Environment = () => ({
  endpoint: process.env.AWS_ENDPOINT_URL_S3,
  region: process.env.AWS_REGION,
});

/** WEB_CONCURRENCY: how many server processes (1 to 64; 1). */
export const webConcurrency = () =>
  Math.max(
    1,
    Math.min(64, Math.floor(Number(process.env.WEB_CONCURRENCY ?? 1)) || 1),
  );
