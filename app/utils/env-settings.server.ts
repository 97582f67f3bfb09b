// Settings read where they are used, through the schema in
// app/utils/env.server.ts. Each is read when called, so a module that reads
// one at its own load still does, and one that reads it on every use still does.
import { setting } from "./env.server";

export const databasePath = () => setting("DATABASE_PATH");

/** A `postgres://` (or `postgresql://`) DATABASE_URL selects PostgreSQL; otherwise SQLite at DATABASE_PATH. */
export function databaseUrl(): string | undefined {
  const url = setting("DATABASE_URL")?.trim();
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
  const origin = setting("PUBLIC_ORIGIN");
  if (origin) return origin.replace(/\/$/, "");
  const flyApp = setting("FLY_APP_NAME");
  if (flyApp) return `https://${flyApp}.fly.dev`;
  return null;
}

export function publicOrigin(request?: Request): string {
  const configured = configuredOrigin();
  if (configured) return configured;
  if (request) return new URL(request.url).origin;
  return `http://localhost:${setting("PORT")}`;
}

export function stripeKeys() {
  const secretKey = setting("STRIPE_SECRET_KEY");
  const publishableKey = setting("STRIPE_PUBLISHABLE_KEY");
  if (!secretKey || !publishableKey) return null;
  return {
    secretKey,
    publishableKey,
    webhookSecret: setting("STRIPE_WEBHOOK_SECRET"),
  };
}

/**
 * SQLITE_LOCK_WAIT_MS: how long a change waits for its turn (SQLite's write
 * lock; on PostgreSQL a pool connection and retried transactions) before
 * the request is answered 503 (10 s).
 */
export const lockWaitMs = () => setting("SQLITE_LOCK_WAIT_MS");

/**
 * STANDBY_CONFIRM_MS: how long a change of money or membership waits for the
 * synchronous standby to confirm its commit before the request is answered
 * 503 (5 s). PostgreSQL with `synchronous_standby_names` only.
 */
export const standbyConfirmMs = () => setting("STANDBY_CONFIRM_MS");

/** DATABASE_POOL_SIZE: PostgreSQL connections per process (10). */
export const databasePoolSize = () => setting("DATABASE_POOL_SIZE");

/** SMTP_URL: mail's transport (`smtp://` or `smtps://`); unset, no transport. */
export const smtpUrl = () => setting("SMTP_URL");

/** MAIL_FROM: the sender of every mail. */
export const mailFrom = () => setting("MAIL_FROM");

/** PUSH_ENDPOINT_HOSTS: comma-separated push services allowed; null, the defaults. */
export function pushEndpointHosts(): string[] | null {
  const configured = setting("PUSH_ENDPOINT_HOSTS");
  return configured
    ? configured
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
    : null;
}

/** VAPID_SUBJECT, VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: the push keys. */
export const vapidEnvironment = () => ({
  subject: setting("VAPID_SUBJECT"),
  publicKey: setting("VAPID_PUBLIC_KEY"),
  privateKey: setting("VAPID_PRIVATE_KEY"),
});

/** OUTBOX_POLL_MS: how often the outbox looks for due retries (2 s). */
export const outboxPollMs = () => setting("OUTBOX_POLL_MS");

/** OUTBOX_RETRY_BASE_MS: the outbox's first retry delay (5 s). */
export const outboxRetryBaseMs = () => setting("OUTBOX_RETRY_BASE_MS");

/**
 * LIVE_HEARTBEAT_MS: how often an open event stream gets a comment line, so
 * no proxy (Fly's included) closes it as idle (15 s; tests shorten it).
 */
export const liveHeartbeatMs = () => setting("LIVE_HEARTBEAT_MS");

/** LIVE_POLL_MS: how often each process reads new live events (250 ms). */
export const livePollMs = () => setting("LIVE_POLL_MS");

/**
 * IDEMPOTENCY_LEASE_MS: how long a claimed key belongs to its request without
 * news from it (10 s); a running request renews it three times as often, so a
 * claim whose process died is free again within this. The crash run shortens it.
 */
export const idempotencyLeaseMs = () => setting("IDEMPOTENCY_LEASE_MS");

/** PASSWORD_RESET_TTL_S: how long a reset link works (an hour; tests shorten it). */
export const passwordResetTtlMs = () => setting("PASSWORD_RESET_TTL_S") * 1000;

/** How long a passkey challenge lives (5 minutes; tests shorten it). */
export const passkeyChallengeTtlMs = () =>
  setting("PASSKEY_CHALLENGE_TTL_S") * 1000;

/** VITEST: set by the test runner, which starts no background work. */
export const underVitest = () => Boolean(setting("VITEST"));

/** MIGRATIONS_FOLDER: where the migrations are (./drizzle). */
export const migrationsFolder = () => setting("MIGRATIONS_FOLDER");

/** BENCH_BARE=1: the bench's bare page answers (404 otherwise). */
export const benchBareOn = () => setting("BENCH_BARE") === "1";

/** PORT: the port the server listens on (3000). */
export const port = () => setting("PORT");

/** LOG_LEVEL: pino's level (info). */
export const logLevel = () => setting("LOG_LEVEL");

/**
 * METRICS_HOST: where /metrics listens. On Fly the machine's private
 * network address (`fly-local-6pn`), elsewhere loopback.
 */
export const metricsHostSetting = () =>
  setting("METRICS_HOST") ??
  (setting("FLY_APP_NAME") ? "fly-local-6pn" : "127.0.0.1");

/** METRICS_PORT: the metrics port (9091), null for "off". */
export const metricsPortSetting = () => setting("METRICS_PORT");

/** STOP_GRACE_MS: how long a stop waits for requests already accepted (10 s). */
export const stopGraceMs = () => setting("STOP_GRACE_MS");

/** FAIRSHAKE_UNDER_LITESTREAM: set by the launcher for the server it runs under Litestream. */
export const underLitestream = () =>
  Boolean(setting("FAIRSHAKE_UNDER_LITESTREAM"));

/** LITESTREAM_REPLICA_URL: where Litestream streams the database; unset, no replica. */
export const litestreamReplicaUrl = () => setting("LITESTREAM_REPLICA_URL");

/** LITESTREAM_BIN: the litestream binary, else the package's or the PATH's. */
export const litestreamBin = () => setting("LITESTREAM_BIN");

/** LITESTREAM_SYNC_INTERVAL: how often Litestream ships commits (1s). */
export const litestreamSyncInterval = () => setting("LITESTREAM_SYNC_INTERVAL");

/** AWS_ENDPOINT_URL_S3 and AWS_REGION, which Fly's Tigris storage sets. */
export const s3Environment = () => ({
  endpoint: setting("AWS_ENDPOINT_URL_S3"),
  region: setting("AWS_REGION"),
});

/** WEB_CONCURRENCY: how many server processes (1 to 64; 1). */
export const webConcurrency = () =>
  Math.max(1, Math.min(64, Math.floor(setting("WEB_CONCURRENCY")) || 1));
