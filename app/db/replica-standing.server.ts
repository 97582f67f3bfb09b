// Whether a region's replica may answer reads (docs/decisions/1064-session-ends-reach-every-region.md).
// A replica that answers is not enough: one far behind the primary serves
// sessions that have ended there (a sign-out, a password change) and other
// stale data for as long as it lags, and one that is no longer in recovery
// (promoted in a failover, yet still named by DATABASE_REPLICA_URL) knows
// nothing of the position a person's `fs_lsn` names. Either is treated as a
// lost replica: its reads are replayed in the primary region and /healthz
// says which.
//
// The replica is asked at most once a second per process, in the
// background of the request that finds the last answer stale; a request
// waits for that answer only briefly, else goes on with the last one.
import { replicaMaxLagMs } from "~/utils/env.server";
import { replicaPool } from "./connections.server";

export type ReplicaStanding =
  | "ok"
  /** It does not answer. */
  | "unavailable"
  /** It has WAL it has not replayed, and its last replayed change is older than the bound. */
  | "behind"
  /** It is not a standby (promoted): its positions mean nothing here. */
  | "not in recovery";

/** How old an answer may be before the replica is asked again. */
const SAMPLE_EVERY_MS = 1_000;
/** How long a request waits for a fresh answer before using the last one. */
const WAIT_FOR_SAMPLE_MS = 250;
/** A replica that does not answer this fast is unavailable. */
const SAMPLE_TIMEOUT_MS = 2_000;

// Lag: 0 when everything received is replayed (nothing newer is known);
// else the age of the last replayed change. No WAL receiver running means
// the replica cannot know what it misses: counted from when it stopped.
const STANDING_SQL = `SELECT pg_is_in_recovery() AS recovering,
  EXISTS (SELECT 1 FROM pg_stat_wal_receiver) AS receiving,
  CASE
    WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
    WHEN pg_last_xact_replay_timestamp() IS NULL THEN 0
    ELSE greatest(0, floor(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000))
  END::bigint AS lag_ms`;

type Sample = { standing: ReplicaStanding; lagMs: number; at: number };

const state: {
  last: Sample | null;
  asking: Promise<Sample> | null;
  notReceivingSince: number | null;
} = { last: null, asking: null, notReceivingSince: null };

/** What one answer of the replica says, with the bound `maxLagMs`. */
export function standingOf(
  row: { recovering: boolean; receiving: boolean; lag_ms: string | number },
  maxLagMs: number,
  notReceivingForMs: number,
): Pick<Sample, "standing" | "lagMs"> {
  if (!row.recovering) return { standing: "not in recovery", lagMs: 0 };
  const lagMs = Math.max(Number(row.lag_ms) || 0, notReceivingForMs);
  return { standing: lagMs > maxLagMs ? "behind" : "ok", lagMs };
}

async function ask(pool: NonNullable<typeof replicaPool>): Promise<Sample> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), SAMPLE_TIMEOUT_MS);
      timer.unref();
    });
    const { rows } = await Promise.race([pool.query(STANDING_SQL), timeout]);
    const row = rows[0];
    const now = Date.now();
    if (row.receiving) state.notReceivingSince = null;
    else state.notReceivingSince ??= now;
    const notReceivingFor =
      state.notReceivingSince === null ? 0 : now - state.notReceivingSince;
    return { ...standingOf(row, replicaMaxLagMs(), notReceivingFor), at: now };
  } catch {
    return { standing: "unavailable", lagMs: 0, at: Date.now() };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The replica's standing, at most a second old; null where this machine has
 * no replica (one region, or the primary region). Never throws.
 */
export async function replicaStanding(): Promise<ReplicaStanding | null> {
  const pool = replicaPool;
  if (!pool) return null;
  const last = state.last;
  if (last && Date.now() - last.at < SAMPLE_EVERY_MS) return last.standing;
  state.asking ??= ask(pool).then((sample) => {
    state.last = sample;
    state.asking = null;
    return sample;
  });
  if (!last) return (await state.asking).standing;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<Sample>((resolve) => {
    timer = setTimeout(() => resolve(last), WAIT_FOR_SAMPLE_MS);
    timer.unref();
  });
  try {
    return (await Promise.race([state.asking, waited])).standing;
  } finally {
    clearTimeout(timer);
  }
}
