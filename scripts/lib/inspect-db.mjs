// Reads a harness run's database from outside the server, on either engine:
// the SQLite file, or the PostgreSQL database at DATABASE_URL. `?`
// placeholders on both; counts come back as numbers on both.
import Database from "better-sqlite3";
import pg from "pg";

const numbers = {
  getTypeParser: (oid, format) =>
    oid === 20 || oid === 1700 ? Number : pg.types.getTypeParser(oid, format),
};

/** `{ all, get, integrity, close }` over `databaseEnv` (DATABASE_URL or DATABASE_PATH). */
export async function openInspector(databaseEnv) {
  if (databaseEnv.DATABASE_URL) {
    const client = new pg.Client({
      connectionString: databaseEnv.DATABASE_URL,
      types: numbers,
    });
    await client.connect();
    const all = async (text, params = []) => {
      let n = 0;
      const sql = text.replace(/\?/g, () => `$${++n}`);
      return (await client.query(sql, params)).rows;
    };
    return {
      all,
      get: async (text, params) => (await all(text, params))[0],
      // PostgreSQL keeps its own files whole (WAL); there is no pragma to ask.
      integrity: async () => "ok",
      close: () => client.end(),
    };
  }
  const db = new Database(databaseEnv.DATABASE_PATH, { readonly: true });
  return {
    all: async (text, params = []) => db.prepare(text).all(...params),
    get: async (text, params = []) => db.prepare(text).get(...params),
    integrity: async () => db.pragma("integrity_check", { simple: true }),
    close: async () => db.close(),
  };
}
