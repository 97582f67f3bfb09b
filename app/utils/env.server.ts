// Environment: every variable the app reads, described once by the schema
// below (docs/operations.md#environment), and the regions' settings that
// every request's way reads. Nothing else reads process.env
// (eslint.config.js refuses it): app/utils/env-settings.server.ts and
// app/utils/env-start.server.ts ask `setting()`. Start-up parses them all and names any
// that is invalid (assertEnvironment); each accessor parses its own when
// called, so a test or script that sets one before a module reads it counts.
import { z } from "zod";

// Set to nothing (or spaces) is unset, as a shell's `NAME=` means.
const blankIsUnset = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const text = () => z.preprocess(blankIsUnset, z.string().optional());
const textOr = (fallback: string) =>
  z.preprocess(blankIsUnset, z.string().default(fallback));
const matching = (pattern: RegExp, expected: string) =>
  z.preprocess(blankIsUnset, z.string().regex(pattern, expected).optional());
const oneOf = <const T extends readonly [string, ...string[]]>(
  values: T,
  fallback?: T[number],
) => {
  const expected =
    values.length === 2
      ? `must be ${values[0]} or ${values[1]}`
      : `must be one of ${values.join(", ")}`;
  const schema = z.enum(values, { error: expected });
  return z.preprocess(
    blankIsUnset,
    fallback === undefined ? schema.optional() : schema.default(fallback),
  );
};
const number = (
  fallback: number,
  expected: string,
  allowed: (n: number) => boolean,
) =>
  z.preprocess(
    blankIsUnset,
    z.coerce
      .number({ error: expected })
      .refine((n) => Number.isFinite(n) && allowed(n), expected)
      .default(fallback),
  );
const positive = (fallback: number, unit: string) =>
  number(fallback, `must be a positive number of ${unit}`, (n) => n > 0);
const portNumber = (n: number) => Number.isInteger(n) && n >= 0 && n < 65536;

const shape = {
  NODE_ENV: text(),
  DEMO_MODE: oneOf(["1", "0"]),
  RATE_LIMITS: oneOf(["on", "off"], "on"),
  PORT: number(3000, "must be a port number (0 to 65535)", portNumber),
  PUBLIC_ORIGIN: matching(/^https?:\/\/[^/]/, "must be an http(s) origin"),
  FLY_APP_NAME: text(),
  FLY_REGION: text(),
  PRIMARY_REGION: text(),
  TRUST_PROXY: text(),
  WEB_CONCURRENCY: number(1, "must be a number of processes", () => true),

  DATABASE_PATH: textOr("./data/fairshake.db"),
  DATABASE_URL: text(),
  DATABASE_POOL_SIZE: number(
    10,
    "must be a whole number of connections, at least 1",
    (n) => Number.isInteger(n) && n >= 1,
  ),
  DATABASE_REPLICA_URL: matching(
    /^postgres(ql)?:\/\//,
    "must be a postgres:// URL (the region's read replica)",
  ),
  PRIMARY_INTERNAL_URL: matching(/^https?:\/\/[^/]/, "must be an http(s) URL"),
  PRIMARY_FORWARD_TIMEOUT_MS: positive(30_000, "milliseconds"),
  REPLICA_WAIT_MS: positive(1_000, "milliseconds"),
  REPLICA_MAX_LAG_MS: positive(30_000, "milliseconds"),
  SQLITE_LOCK_WAIT_MS: positive(10_000, "milliseconds"),
  STANDBY_CONFIRM_MS: positive(5_000, "milliseconds"),
  MIGRATIONS_FOLDER: textOr("./drizzle"),

  SESSION_SECRET: text(),
  STRIPE_SECRET_KEY: text(),
  STRIPE_PUBLISHABLE_KEY: text(),
  STRIPE_WEBHOOK_SECRET: text(),

  SMTP_URL: matching(/^smtps?:\/\//, "must start smtp:// or smtps://"),
  MAIL_FROM: textOr("Fairshake <no-reply@localhost>"),
  VAPID_SUBJECT: textOr("mailto:no-reply@localhost"),
  VAPID_PUBLIC_KEY: text(),
  VAPID_PRIVATE_KEY: text(),
  PUSH_ENDPOINT_HOSTS: text(),
  OUTBOX_POLL_MS: positive(2_000, "milliseconds"),
  OUTBOX_RETRY_BASE_MS: positive(5_000, "milliseconds"),
  LIVE_HEARTBEAT_MS: positive(15_000, "milliseconds"),
  LIVE_POLL_MS: positive(250, "milliseconds"),
  IDEMPOTENCY_LEASE_MS: positive(10_000, "milliseconds"),
  // Large request bodies (photos) held at once, and how long one waits for
  // its turn before a 503 (app/framework/body-admission.ts).
  UPLOAD_BUDGET_BYTES: positive(16 * 1024 * 1024, "bytes"),
  UPLOAD_WAIT_MS: positive(30_000, "milliseconds"),
  PASSWORD_RESET_TTL_S: positive(3_600, "seconds"),
  PASSKEY_CHALLENGE_TTL_S: positive(300, "seconds"),

  // The windows of docs/product-rules.md#answer-windows and #getting-paid
  // (app/models/bets/windows.server.ts); tests run them in seconds.
  RESPONSE_WINDOW_S: positive(259_200, "seconds"),
  PAYMENT_DUE_S: positive(259_200, "seconds"),
  NUDGE_INTERVAL_S: positive(86_400, "seconds"),
  SWEEP_INTERVAL_S: positive(60, "seconds"),
  // docs/product-rules.md#messages: an author deletes their message within this.
  MESSAGE_DELETE_WINDOW_S: positive(600, "seconds"),

  LOG_LEVEL: oneOf(
    ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    "info",
  ),
  METRICS_HOST: text(),
  METRICS_PORT: z.preprocess(
    blankIsUnset,
    z
      .string()
      .default("9091")
      .refine(
        (v) => v === "off" || portNumber(Number(v)),
        'must be a port number (0 to 65535) or "off"',
      )
      .transform((v) => (v === "off" ? null : Number(v))),
  ),
  STOP_GRACE_MS: number(
    10_000,
    "must be a number of milliseconds (0 or more)",
    (n) => n >= 0,
  ),

  LITESTREAM_REPLICA_URL: text(),
  LITESTREAM_BIN: text(),
  LITESTREAM_SYNC_INTERVAL: z.preprocess(
    blankIsUnset,
    z
      .string()
      .regex(
        /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
        "must be a duration such as 1s or 500ms",
      )
      .default("1s"),
  ),
  FAIRSHAKE_UNDER_LITESTREAM: text(),
  AWS_ENDPOINT_URL_S3: text(),
  AWS_REGION: text(),

  BENCH_BARE: oneOf(["1", "0"]),
  VITEST: text(),
};

const schema = z.object(shape);
export type Environment = z.output<typeof schema>;
type Name = keyof Environment;
/** Where variables are read from: the process's, unless a test passes its own. */
export type Source = Record<string, string | undefined>;

function invalidEnvironment(issues: z.core.$ZodIssue[]) {
  const problems = new Map<string, string>();
  for (const issue of issues) {
    const name = String(issue.path[0]);
    if (!problems.has(name)) problems.set(name, `${name} ${issue.message}`);
  }
  return new Error(
    `Invalid environment: ${[...problems.values()].join("; ")}.`,
  );
}

/** Every variable, parsed; throws naming each one that is invalid. */
export function readEnvironment(source: Source = process.env): Environment {
  const result = schema.safeParse(source);
  if (!result.success) throw invalidEnvironment(result.error.issues);
  return result.data;
}

/**
 * The process's own variables, parsed: a name's raw text and what it parsed
 * to. Several are read on every request (the CSP's Stripe keys, the origin,
 * the regions), and parsing each through its schema again was ~1 % of a
 * page's CPU (docs/decisions/archive/1056-server-cpu-per-request.md). The raw text
 * is still read each time, so a test that changes a variable is seen.
 */
const parsed = new Map<Name, { raw: string | undefined; value: unknown }>();

/** One variable, parsed now; throws naming it when it is invalid. */
export function setting<N extends Name>(
  name: N,
  source: Source = process.env,
): Environment[N] {
  const raw = source[name];
  const own = source === process.env;
  const known = own ? parsed.get(name) : undefined;
  if (known && known.raw === raw) return known.value as Environment[N];
  const result = shape[name].safeParse(raw);
  if (!result.success)
    throw invalidEnvironment(
      result.error.issues.map((issue) => ({ ...issue, path: [name] })),
    );
  if (own) parsed.set(name, { raw, value: result.data });
  return result.data as Environment[N];
}

/** Some variables, parsed now, by their names. */
export function settings<N extends Name>(...names: N[]): Pick<Environment, N> {
  return Object.fromEntries(names.map((name) => [name, setting(name)])) as Pick<
    Environment,
    N
  >;
}

// Read once, when this module loads.
export const isProduction = setting("NODE_ENV") === "production";
export const isDemoMode = setting("DEMO_MODE") === "1";
export const rateLimitsOn = setting("RATE_LIMITS") === "on";

/** The SQLite file: the connection opens it, secrets and keys live beside it. */
// --- Regions (docs/decisions/1050-regions-read-nearby-write-in-one.md) -------

/**
 * Where this machine is: null without PRIMARY_REGION (one region, nothing
 * changes). `outside` is true on a machine whose FLY_REGION is not the
 * primary's: it reads from DATABASE_REPLICA_URL and writes nothing.
 */
export function regions(): {
  primary: string;
  here: string;
  outside: boolean;
} | null {
  const primary = setting("PRIMARY_REGION")?.trim();
  if (!primary) return null;
  const here = setting("FLY_REGION")?.trim() || primary;
  return { primary, here, outside: here !== primary };
}

/** True on a machine outside the primary region. */
export const outsidePrimaryRegion = () => regions()?.outside === true;

/**
 * DATABASE_REPLICA_URL, outside the primary region only; else undefined.
 * `{region}` in it is this machine's region, so one secret serves every
 * region (`postgres://…@{region}.fairshake-db.internal:5433/fairshake`).
 */
export function replicaDatabaseUrl(): string | undefined {
  const where = regions();
  const url = setting("DATABASE_REPLICA_URL");
  if (!where?.outside || !url) return undefined;
  return url.replaceAll("{region}", where.here);
}

/** REPLICA_WAIT_MS: how long a read waits for the replica to reach the person's own write (1 s). */
export const replicaWaitMs = () => setting("REPLICA_WAIT_MS");

/**
 * REPLICA_MAX_LAG_MS: a replica further behind the primary than this is
 * treated as lost, so an ended session or an old answer is never served
 * from it for longer (30 s).
 */
export const replicaMaxLagMs = () => setting("REPLICA_MAX_LAG_MS");

/**
 * Where a machine outside the primary region sends a request Fly's proxy
 * cannot replay (a body over 1 MB): PRIMARY_INTERNAL_URL, else on Fly the
 * primary region's machines on the private network.
 */
export function primaryInternalUrl(): string | null {
  const configured = setting("PRIMARY_INTERNAL_URL");
  if (configured) return configured.replace(/\/$/, "");
  const app = setting("FLY_APP_NAME");
  const where = regions();
  if (!app || !where) return null;
  return `http://${where.primary}.${app}.internal:${setting("PORT")}`;
}

/**
 * PRIMARY_FORWARD_TIMEOUT_MS: how long a forward to the primary region may
 * go quiet (no byte either way) before it is given up with a 503 (30 s).
 */
export const forwardTimeoutMs = () => setting("PRIMARY_FORWARD_TIMEOUT_MS");

/**
 * The header a proxy in front of this machine sets to the visitor's address,
 * believed only where the deployment says one does: on Fly (its proxy sets
 * Fly-Client-IP and replaces any value a client sent), or where TRUST_PROXY
 * names it. Null: the socket's address is the visitor's (server/client-address.ts).
 */
export function trustedProxyHeader(
  env: Pick<Environment, "TRUST_PROXY" | "FLY_APP_NAME"> = settings(
    "TRUST_PROXY",
    "FLY_APP_NAME",
  ),
): string | null {
  const named = env.TRUST_PROXY?.trim();
  if (named && named !== "off") return named;
  if (named !== "off" && env.FLY_APP_NAME) return "Fly-Client-IP";
  return null;
}
