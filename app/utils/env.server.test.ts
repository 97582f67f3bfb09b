// Where mailed links point, and the start-up refusal when nothing says.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

async function load(env: Record<string, string | undefined>) {
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  // The accessors, wherever they live (env, env-settings, env-start).
  return {
    ...(await import("./env.server")),
    ...(await import("./env-settings.server")),
    ...(await import("./env-start.server")),
  };
}

describe("the public origin", () => {
  it("is PUBLIC_ORIGIN first, without a trailing slash", async () => {
    const env = await load({
      PUBLIC_ORIGIN: "https://bets.example/",
      FLY_APP_NAME: "fairshake",
    });
    expect(env.publicOrigin()).toBe("https://bets.example");
  });

  it("is the Fly app's own name on Fly", async () => {
    const env = await load({ PUBLIC_ORIGIN: "", FLY_APP_NAME: "fairshake" });
    expect(env.publicOrigin()).toBe("https://fairshake.fly.dev");
  });

  it("is never the Host header when one is configured", async () => {
    const env = await load({ PUBLIC_ORIGIN: "https://bets.example" });
    const poisoned = new Request("https://evil.example/forgot-password");
    expect(env.publicOrigin(poisoned)).toBe("https://bets.example");
  });

  it("refuses to start in production with SMTP but no origin (outside demo mode)", async () => {
    const env = await load({
      NODE_ENV: "production",
      DEMO_MODE: "",
      SMTP_URL: "smtp://mail.example:25",
      PUBLIC_ORIGIN: "",
      FLY_APP_NAME: "",
      SESSION_SECRET: "s",
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
    });
    expect(() => env.assertEnvironment()).toThrow(/PUBLIC_ORIGIN is required/);
  });
});

describe("the environment's schema", () => {
  it("gives every variable its default when nothing is set", async () => {
    const { readEnvironment } = await load({});
    const env = readEnvironment({});
    expect(env).toMatchObject({
      RATE_LIMITS: "on",
      PORT: 3000,
      DATABASE_PATH: "./data/fairshake.db",
      DATABASE_POOL_SIZE: 10,
      SQLITE_LOCK_WAIT_MS: 10_000,
      MAIL_FROM: "Fairshake <no-reply@localhost>",
      OUTBOX_POLL_MS: 2_000,
      OUTBOX_RETRY_BASE_MS: 5_000,
      LIVE_HEARTBEAT_MS: 15_000,
      LIVE_POLL_MS: 250,
      PASSWORD_RESET_TTL_S: 3_600,
      RESPONSE_WINDOW_S: 259_200,
      PAYMENT_DUE_S: 259_200,
      NUDGE_INTERVAL_S: 86_400,
      SWEEP_INTERVAL_S: 60,
      LOG_LEVEL: "info",
      METRICS_PORT: 9091,
      STOP_GRACE_MS: 10_000,
      LITESTREAM_SYNC_INTERVAL: "1s",
      WEB_CONCURRENCY: 1,
      MIGRATIONS_FOLDER: "./drizzle",
    });
    expect(env.DEMO_MODE).toBeUndefined();
    expect(env.SESSION_SECRET).toBeUndefined();
  });

  it("takes a variable set to nothing as unset", async () => {
    const { readEnvironment } = await load({});
    const env = readEnvironment({ RESPONSE_WINDOW_S: "", PUBLIC_ORIGIN: " " });
    expect(env.RESPONSE_WINDOW_S).toBe(259_200);
    expect(env.PUBLIC_ORIGIN).toBeUndefined();
  });

  it("reads numbers, and METRICS_PORT=off as none", async () => {
    const { readEnvironment } = await load({});
    const env = readEnvironment({
      RESPONSE_WINDOW_S: "3",
      PORT: "0",
      METRICS_PORT: "off",
    });
    expect(env).toMatchObject({ RESPONSE_WINDOW_S: 3, PORT: 0 });
    expect(env.METRICS_PORT).toBeNull();
  });

  it("names the variable whose value is invalid", async () => {
    const { readEnvironment } = await load({});
    expect(() => readEnvironment({ RESPONSE_WINDOW_S: "three days" })).toThrow(
      "Invalid environment: RESPONSE_WINDOW_S must be a positive number of seconds.",
    );
    expect(() =>
      readEnvironment({ SQLITE_LOCK_WAIT_MS: "0", DEMO_MODE: "yes" }),
    ).toThrow(
      "Invalid environment: DEMO_MODE must be 1 or 0; SQLITE_LOCK_WAIT_MS must be a positive number of milliseconds.",
    );
    expect(() => readEnvironment({ METRICS_PORT: "nine" })).toThrow(
      /METRICS_PORT must be a port number/,
    );
  });

  it("stops start-up on an invalid value", async () => {
    const env = await load({ SWEEP_INTERVAL_S: "soon" });
    expect(() => env.assertEnvironment()).toThrow(
      /SWEEP_INTERVAL_S must be a positive number of seconds/,
    );
  });

  it("reads a setting when it is asked for, not when the module loaded", async () => {
    const env = await load({ SQLITE_LOCK_WAIT_MS: "300" });
    expect(env.lockWaitMs()).toBe(300);
    vi.stubEnv("SQLITE_LOCK_WAIT_MS", "400");
    expect(env.lockWaitMs()).toBe(400);
    vi.stubEnv("SQLITE_LOCK_WAIT_MS", "-1");
    expect(() => env.lockWaitMs()).toThrow(
      "Invalid environment: SQLITE_LOCK_WAIT_MS must be a positive number of milliseconds.",
    );
    // Kept parses follow the raw text: an invalid value remembers nothing,
    // and a source passed in is parsed on its own, never the process's.
    vi.stubEnv("SQLITE_LOCK_WAIT_MS", "300");
    expect(env.lockWaitMs()).toBe(300);
    expect(
      env.setting("SQLITE_LOCK_WAIT_MS", { SQLITE_LOCK_WAIT_MS: "5" }),
    ).toBe(5);
    expect(env.lockWaitMs()).toBe(300);
    vi.stubEnv("SQLITE_LOCK_WAIT_MS", "");
    expect(env.lockWaitMs()).toBe(10_000);
  });
});

describe("regions", () => {
  const base = {
    NODE_ENV: "",
    SMTP_URL: "",
    STRIPE_SECRET_KEY: "",
    STRIPE_PUBLISHABLE_KEY: "",
    SESSION_SECRET: "s",
  };

  it("change nothing without PRIMARY_REGION, or in the primary region", async () => {
    let env = await load({ ...base, PRIMARY_REGION: "", FLY_REGION: "syd" });
    expect(env.regions()).toBeNull();
    expect(env.outsidePrimaryRegion()).toBe(false);
    vi.resetModules();
    env = await load({
      ...base,
      PRIMARY_REGION: "ams",
      FLY_REGION: "ams",
      DATABASE_URL: "postgres://db/app",
    });
    expect(env.regions()).toEqual({
      primary: "ams",
      here: "ams",
      outside: false,
    });
    expect(() => env.assertEnvironment()).not.toThrow();
  });

  it("refuse PRIMARY_REGION on SQLite, naming why", async () => {
    const env = await load({
      ...base,
      PRIMARY_REGION: "ams",
      DATABASE_URL: "",
    });
    expect(() => env.assertEnvironment()).toThrow(
      /PRIMARY_REGION needs PostgreSQL.*SQLite .* runs in one region only/,
    );
  });

  it("need the region's replica outside the primary region", async () => {
    const env = await load({
      ...base,
      PRIMARY_REGION: "ams",
      FLY_REGION: "syd",
      DATABASE_URL: "postgres://db/app",
      DATABASE_REPLICA_URL: "",
    });
    expect(env.outsidePrimaryRegion()).toBe(true);
    expect(() => env.assertEnvironment()).toThrow(
      /DATABASE_REPLICA_URL is required/,
    );
  });

  it("reach the primary region on Fly's private network for what Fly cannot replay", async () => {
    const env = await load({
      ...base,
      PRIMARY_REGION: "ams",
      FLY_REGION: "syd",
      FLY_APP_NAME: "fairshake",
      PORT: "8080",
      PRIMARY_INTERNAL_URL: "",
    });
    expect(env.primaryInternalUrl()).toBe("http://ams.fairshake.internal:8080");
  });
});

describe("the region's replica", () => {
  it("is DATABASE_REPLICA_URL with {region} as this machine's region, outside the primary only", async () => {
    let env = await load({
      PRIMARY_REGION: "ams",
      FLY_REGION: "syd",
      DATABASE_REPLICA_URL: "postgres://u@{region}.db.internal:5433/app",
    });
    expect(env.replicaDatabaseUrl()).toBe(
      "postgres://u@syd.db.internal:5433/app",
    );
    vi.resetModules();
    env = await load({
      PRIMARY_REGION: "ams",
      FLY_REGION: "ams",
      DATABASE_REPLICA_URL: "postgres://u@{region}.db.internal:5433/app",
    });
    expect(env.replicaDatabaseUrl()).toBeUndefined();
  });
});
