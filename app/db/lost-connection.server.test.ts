// A PostgreSQL connection that dies while a transaction holds it between two
// statements (the server restarting, a failover) must not take the process
// down: pg emits 'error' on a checked-out client that has no query running,
// and an 'error' event without a listener is an uncaught exception. The next
// statement fails instead, marked unavailable (a 503 at the doors), and the
// pool replaces the connection. PostgreSQL half of the matrix only.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { db, immediate, pool, selectRows } from "./client.server";
import { unwrapDomainError, UnavailableError } from "~/utils/errors";
import { onPostgres } from "../../tests/support/test-database";

describe.runIf(onPostgres())("a connection lost inside a transaction", () => {
  it("fails that transaction as unavailable and leaves the process serving", async () => {
    const failure = await immediate(async (tx) => {
      const [backend] = await selectRows<{ pid: number }>(
        tx,
        sql`SELECT pg_backend_pid() AS pid`,
      );
      // Another connection ends this one while no query is running on it.
      await pool.query("SELECT pg_terminate_backend($1)", [backend!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await selectRows(tx, sql`SELECT 1 AS one`);
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(unwrapDomainError(failure)).toBeInstanceOf(UnavailableError);

    const [row] = await selectRows<{ one: number }>(db, sql`SELECT 1 AS one`);
    expect(row?.one).toBe(1);
  });
});
