// Reads a test server's own database from the test process, on either engine:
// for what no API shows (the ledger's sum, including the platform's side).
import Database from "better-sqlite3";
import pg from "pg";

/**
 * Runs one statement with `?` placeholders on the database `databaseEnv`
 * names: the rows it returns, or none for a write (a test setting up what
 * no API can, as the demo seed does).
 */
export async function queryServerDatabase<T = Record<string, unknown>>(
  databaseEnv: Record<string, string>,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  if (databaseEnv.DATABASE_URL) {
    const client = new pg.Client({
      connectionString: databaseEnv.DATABASE_URL,
    });
    await client.connect();
    try {
      let n = 0;
      const result = await client.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return result.rows as T[];
    } finally {
      await client.end();
    }
  }
  const file = new Database(databaseEnv.DATABASE_PATH!, {
    fileMustExist: true,
  });
  try {
    const statement = file.prepare(text);
    if (statement.reader) return statement.all(...params) as T[];
    statement.run(...params);
    return [];
  } finally {
    file.close();
  }
}

/** The ledger's sum over everything, and the payments whose entries do not sum to zero. */
export async function ledgerBalance(databaseEnv: Record<string, string>) {
  const [total] = await queryServerDatabase<{ s: number | string }>(
    databaseEnv,
    "SELECT coalesce(sum(amount_cents), 0) AS s FROM ledger_entries",
  );
  const unbalanced = await queryServerDatabase(
    databaseEnv,
    "SELECT payment_id FROM ledger_entries GROUP BY payment_id HAVING sum(amount_cents) <> 0",
  );
  return { total: Number(total?.s ?? 0), unbalanced };
}
