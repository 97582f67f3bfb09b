// WAL positions, for the regions' middleware (app/pipeline/regions.server.ts,
// docs/decisions/1050-regions-read-nearby-write-in-one.md): where the primary
// has written to, how far the region's replica has replayed, and whether the
// replica may answer at all (app/db/replica-standing.server.ts).
import { sql } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { selectRows } from "~/db/dialect.server";
import { usingPrimary } from "~/db/primary-scope.server";
import { replicaLostRecently } from "~/db/pg-pool.server";

export { replicaLostRecently };
export { replicaStanding } from "~/db/replica-standing.server";

/** A WAL position (`16/B374D848`) as one number, or null when malformed. */
export function parseLsn(value: string | null | undefined): bigint | null {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(value ?? "");
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

async function oneLsn(query: ReturnType<typeof sql>): Promise<string | null> {
  const rows = await selectRows<{ lsn: string | null }>(db, query);
  return rows[0]?.lsn ?? null;
}

/**
 * The primary's position, asked only when a cookie names one the replica
 * has not reached and that is ahead of the last position known: a position
 * ahead of the primary's own was never set by it (forged, or from before a
 * failover), and is ignored rather than waited for.
 */
const primaryPosition: { known: bigint; asking: Promise<bigint> | null } = {
  known: 0n,
  asking: null,
};

async function aheadOfThePrimary(target: bigint): Promise<boolean> {
  if (target <= primaryPosition.known) return false;
  primaryPosition.asking ??= usingPrimary(() =>
    oneLsn(sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`),
  )
    .then((lsn) => {
      const now = parseLsn(lsn);
      if (now !== null && now > primaryPosition.known)
        primaryPosition.known = now;
      return primaryPosition.known;
    })
    .catch(() => primaryPosition.known)
    .finally(() => (primaryPosition.asking = null));
  const known = await primaryPosition.asking;
  return known > 0n && target > known;
}

/**
 * Waits until the replica has replayed `target`: "reached"; "late" after
 * `waitMs` or when it cannot say; "ignored" when no primary ever wrote it.
 */
export async function replicaReaches(
  target: bigint,
  waitMs: number,
): Promise<"reached" | "late" | "ignored"> {
  const deadline = Date.now() + waitMs;
  let forged: Promise<boolean> | null = null;
  let ahead = false;
  for (let attempt = 0; ; attempt++) {
    let replayed: bigint | null;
    try {
      replayed = parseLsn(
        await oneLsn(sql`SELECT pg_last_wal_replay_lsn()::text AS lsn`),
      );
    } catch {
      return "late"; // the replica lost: the primary region answers
    }
    if (replayed !== null && replayed >= target) return "reached";
    if (!forged) {
      forged = aheadOfThePrimary(target);
      void forged.then((yes) => (ahead = yes));
    }
    if (ahead) return "ignored";
    const left = deadline - Date.now();
    if (left <= 0) return (await forged) ? "ignored" : "late";
    // 5, 10, 20 … 80 ms: a fresh write is usually replayed within a few.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(left, 5 * 2 ** Math.min(attempt, 4))),
    );
  }
}

/** The primary's WAL position now (`pg_current_wal_insert_lsn()`), as text. */
export function currentWalPosition(): Promise<string | null> {
  return oneLsn(sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
}
