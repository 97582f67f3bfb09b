// A PostgreSQL connection that dies while a transaction holds it between two
// statements (the server restarting, a failover) must not take the process
// down: pg emits 'error' on a checked-out client that has no query running,
// and an 'error' event without a listener is an uncaught exception. The next
// statement fails instead, marked unavailable (a 503 at the doors), and the
// pool replaces the connection. PostgreSQL half of the matrix only.
//
// A server that refuses a write as read-only (a primary come back as a
// standby after a failover, behind the same address) is the same 503, and
// that connection is dropped, so the next one goes wherever the address
// leads now.
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { pool } from "./connections.server";
import { db, immediate } from "./transactions.server";
import { executeSql, selectRows } from "./dialect.server";
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

describe.runIf(onPostgres())("a write refused as read-only", () => {
  it("fails as unavailable and the pool drops that connection", async () => {
    let pid = 0;
    const failure = await immediate(async (tx) => {
      const [backend] = await selectRows<{ pid: number }>(
        tx,
        sql`SELECT pg_backend_pid() AS pid`,
      );
      pid = backend!.pid;
      // As on a standby: this transaction may not write.
      await executeSql(tx, sql`SET TRANSACTION READ ONLY`);
      await executeSql(tx, sql`CREATE TEMP TABLE refused (a int)`);
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(unwrapDomainError(failure)).toBeInstanceOf(UnavailableError);

    const alive = async () =>
      (
        await selectRows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid}`,
        )
      )[0]!.n;
    for (let i = 0; i < 100 && (await alive()) > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await alive()).toBe(0);
    const [row] = await selectRows<{ one: number }>(db, sql`SELECT 1 AS one`);
    expect(row?.one).toBe(1);
  });
});
