// Raw SQL for tests that look under the models (a row's stored value, a
// trigger), on whichever engine the run uses. The shape of better-sqlite3's
// `prepare(text).run/get/all(...params)`, awaited; `?` placeholders on both.
import { engine, pool, sqlite } from "~/db/connections.server";

type Row = Record<string, unknown>;

async function query(text: string, params: unknown[]) {
  if (engine === "sqlite") return null;
  let n = 0;
  return pool.query(
    text.replace(/\?/g, () => `$${++n}`),
    params,
  );
}

export const rawDb = {
  prepare(text: string) {
    return {
      async run(...params: unknown[]): Promise<{ changes: number }> {
        if (engine === "sqlite") return sqlite.prepare(text).run(...params);
        return { changes: (await query(text, params))!.rowCount ?? 0 };
      },
      async get(...params: unknown[]): Promise<Row | undefined> {
        if (engine === "sqlite")
          return sqlite.prepare(text).get(...params) as Row | undefined;
        return (await query(text, params))!.rows[0];
      },
      async all(...params: unknown[]): Promise<Row[]> {
        if (engine === "sqlite")
          return sqlite.prepare(text).all(...params) as Row[];
        return (await query(text, params))!.rows;
      },
    };
  },
};
