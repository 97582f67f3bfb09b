// Changes of money or membership, kept by the synchronous standby
// (`immediate(fn, { moneyOrMembership: true })` on PostgreSQL).
//
// PostgreSQL writes a commit on the primary first, then waits for the
// synchronous standby; that wait cannot be given a timeout. When it is
// cancelled the COMMIT still succeeds, with a warning, and the change stays
// on the primary only. So a watch cancels a wait that outlasts its budget
// and the request is answered 503 instead of success: a keyed write's
// answer is kept as usual, and its repeat is given it only once the standby
// confirms (app/pipeline/idempotency-guard.server.ts). The app never
// lowers `synchronous_commit` and never touches `synchronous_standby_names`.
import pg from "pg";
import { sql } from "drizzle-orm";
import { currentStandbyConfirmation } from "./standby-confirmation.server";
import { standbyConfirmMs, databaseUrl } from "~/utils/env-settings.server";
import { primaryDb, type Tx } from "./connections.server";
import { type ClientThatSaysUnavailable, committing } from "./pg-pool.server";
import { selectRows } from "./dialect.server";

/**
 * Raises `synchronous_commit` to `on` for this transaction when a
 * synchronous standby is configured and the setting is weaker (never
 * lowers it); true when the commit will wait for a standby.
 */
const RAISE_SYNCHRONOUS_COMMIT = sql`SELECT
  current_setting('synchronous_standby_names') <> '' AS waits,
  CASE WHEN current_setting('synchronous_standby_names') <> ''
        AND current_setting('synchronous_commit') IN ('off', 'local', 'remote_write')
       THEN set_config('synchronous_commit', 'on', true) END AS raised`;

export async function synchronousTransaction<T>(
  body: (tx: Tx) => Promise<T>,
  isolationLevel: "serializable" | "read committed",
): Promise<T> {
  const watched: { client?: ClientThatSaysUnavailable } = {};
  let waits = false;
  let watch: StandbyWatch | undefined;
  const result = await committing
    .run(watched, () =>
      primaryDb.transaction(
        async (tx) => {
          const [row] = await selectRows<{ waits: boolean }>(
            tx,
            RAISE_SYNCHRONOUS_COMMIT,
          );
          waits = row?.waits === true;
          const value = await body(tx);
          // COMMIT is next: from here the wait for the standby is watched.
          if (waits && watched.client) watch = watchCommit(watched.client);
          return value;
        },
        { isolationLevel },
      ),
    )
    .finally(() => watch?.stop());
  const confirmation = currentStandbyConfirmation();
  if (confirmation) confirmation.moneyOrMembership = true;
  if (watch && !watch.confirmed()) {
    console.warn(
      "postgres: the synchronous standby did not confirm a change in time; it is committed on the primary, and the request is answered 503",
    );
    if (confirmation) confirmation.unconfirmed = true;
  }
  return result;
}

type StandbyWatch = { stop(): void; confirmed(): boolean };

/**
 * Watches `client`'s COMMIT: past the request's budget for the standby
 * (STANDBY_CONFIRM_MS from its first wait), cancels the wait, looking again
 * every 200 ms until the COMMIT returns. Cancels only a backend that is
 * waiting for synchronous replication, so no other statement is hit. A
 * wait that cannot be cancelled within another budget (the address now
 * leads to another node, and the old primary waits on, cut off) ends with
 * the connection: the COMMIT fails as the database out of reach.
 */
function watchCommit(client: ClientThatSaysUnavailable): StandbyWatch {
  const confirmation = currentStandbyConfirmation();
  const now = Date.now();
  const deadline = confirmation?.deadline ?? now + standbyConfirmMs();
  if (confirmation) confirmation.deadline = deadline;
  const pid = (client as unknown as { processID: number }).processID;
  client.standbyWaitCancelled = false;
  let stopped = false;
  let cancelled = false;
  let timer: NodeJS.Timeout | undefined;
  const cutAt = deadline + standbyConfirmMs();
  const look = async () => {
    if (stopped) return;
    if (Date.now() > cutAt) {
      cancelled = true;
      void client.end().catch(() => undefined);
      return;
    }
    cancelled = (await cancelStandbyWait(pid)) || cancelled;
    if (!stopped) timer = setTimeout(look, 200).unref();
  };
  timer = setTimeout(look, Math.max(0, deadline - now)).unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    confirmed: () => !cancelled && !client.standbyWaitCancelled,
  };
}

/**
 * Cancels backend `pid`'s wait for the synchronous standby, on a connection
 * of its own (the pool's may all be waiting); true when it did. Any failure
 * is false: a primary that cannot be reached fails the COMMIT itself.
 */
async function cancelStandbyWait(pid: number): Promise<boolean> {
  const client = new pg.Client({
    connectionString: databaseUrl(),
    connectionTimeoutMillis: 2_000,
  });
  client.on("error", () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ cancelled: boolean }>(
      `SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity
        WHERE pid = $1 AND wait_event = 'SyncRep'`,
      [pid],
    );
    return rows[0]?.cancelled === true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
