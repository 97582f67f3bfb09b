// What the health check asks of the database: that it answers a read, on
// either engine, within a couple of seconds (a lost PostgreSQL connection
// must say so, not hang the check). Outside the primary region it asks the
// primary and the region's replica: without the replica the machine still
// serves (its reads are replayed in the primary region), so that is said,
// not failed; so is a replica too far behind or no longer a standby (docs/decisions/1050-regions-read-nearby-write-in-one.md).
import { sql } from "drizzle-orm";
import { replicaPool } from "~/db/connections.server";
import { db } from "~/db/transactions.server";
import { selectRows } from "~/db/dialect.server";
import { usingPrimary } from "~/db/primary-scope.server";
import { replicaStanding } from "~/db/replica-standing.server";

export type DatabaseHealth =
  | "ok"
  | "database unavailable"
  | "replica unavailable"
  | "replica behind"
  | "replica not in recovery";

async function answersWithin(query: () => Promise<unknown>, ms = 2_000) {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), ms);
    });
    await Promise.race([query(), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function databaseHealth(): Promise<DatabaseHealth> {
  const replica = replicaPool;
  const [primaryAnswers, replicaAnswers] = await Promise.all([
    answersWithin(() => usingPrimary(() => selectRows(db, sql`SELECT 1`))),
    replica ? answersWithin(() => replica.query("SELECT 1")) : true,
  ]);
  if (!primaryAnswers) return "database unavailable";
  if (!replicaAnswers) return "replica unavailable";
  // Answering is not enough: too far behind, or promoted, it is not used.
  const standing = await replicaStanding();
  return standing === null || standing === "ok" ? "ok" : `replica ${standing}`;
}
