// What the health check asks of the database: that it answers a read, on
// either engine, within a couple of seconds (a lost PostgreSQL connection
// must say so, not hang the check).
import { sql } from "drizzle-orm";
import { db, selectRows } from "~/db/client.server";

export async function databaseAnswers(): Promise<boolean> {
  try {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), 2_000);
    });
    await Promise.race([selectRows(db, sql`SELECT 1`), timeout]).finally(() =>
      clearTimeout(timer),
    );
    return true;
  } catch {
    return false;
  }
}
