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
