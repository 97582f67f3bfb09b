// `npm run db:copy -- --to postgres://…`: moves a SQLite deployment to
// PostgreSQL (docs/operations.md#postgres-on-fly). Reads the SQLite file at
// DATABASE_PATH (read-only), brings the target up to date with PostgreSQL's
// migrations, refuses it unless every table is empty, then copies every
// row with its id in one transaction, parents before children, and moves
// each id sequence past the highest id. Before it commits it checks that
// every table has as many rows as the source and that the ledger sums to
// zero on both sides; any difference rolls the whole copy back. Text holding
// a NUL (which PostgreSQL cannot store) is named by table, column and id.
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

const BATCH = 500;

export async function copySqliteToPostgres({
  from,
  to,
  migrationsFolder = path.resolve(
    process.env.MIGRATIONS_FOLDER ?? "./drizzle",
    "pg",
  ),
  log = console.info,
}) {
  const source = new Database(from, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: to });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder });
    const tables = await tablesParentsFirst(client);
    const nonEmpty = [];
    for (const table of tables) {
      const { rows } = await client.query(
        `SELECT EXISTS (SELECT 1 FROM "${table}") AS any`,
      );
      if (rows[0].any) nonEmpty.push(table);
    }
    if (nonEmpty.length > 0)
      throw new Error(
        `the target is not empty (${nonEmpty.join(", ")}): db:copy only fills an empty database`,
      );

    const report = [];
    await client.query("BEGIN");
    try {
      for (const table of tables) {
        const columns = await columnsOf(client, table);
        const rows = source.prepare(`SELECT * FROM "${table}"`).all();
        refuseNul(table, columns, rows);
        for (let i = 0; i < rows.length; i += BATCH)
          await insertRows(client, table, columns, rows.slice(i, i + BATCH));
        await moveSequences(client, table, columns);
        const { rows: counted } = await client.query(
          `SELECT count(*)::int AS n FROM "${table}"`,
        );
        if (counted[0].n !== rows.length)
          throw new Error(
            `${table}: ${rows.length} rows in SQLite, ${counted[0].n} copied`,
          );
        report.push([table, rows.length]);
      }
      const sqliteSum = source
        .prepare(
          "SELECT coalesce(sum(amount_cents), 0) AS s FROM ledger_entries",
        )
        .get().s;
      const { rows: pgSum } = await client.query(
        "SELECT coalesce(sum(amount_cents), 0)::bigint AS s FROM ledger_entries",
      );
      if (Number(sqliteSum) !== 0 || Number(pgSum[0].s) !== 0)
        throw new Error(
          `the ledger does not sum to zero (SQLite ${sqliteSum}, PostgreSQL ${pgSum[0].s})`,
        );
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
    for (const [table, n] of report) log(`${table}: ${n} rows`);
    log("ledger: sums to zero on both sides");
    return Object.fromEntries(report);
  } finally {
    source.close();
    await client.end();
  }
}

/** The app's tables, each after every table it references. */
async function tablesParentsFirst(client) {
  const { rows: tables } = await client.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  const { rows: edges } = await client.query(`
    SELECT child.relname AS child, parent.relname AS parent
    FROM pg_constraint c
    JOIN pg_class child ON child.oid = c.conrelid
    JOIN pg_class parent ON parent.oid = c.confrelid
    JOIN pg_namespace n ON n.oid = child.relnamespace
    WHERE c.contype = 'f' AND n.nspname = 'public'`);
  const parents = new Map(tables.map((t) => [t.tablename, new Set()]));
  for (const { child, parent } of edges)
    if (child !== parent) parents.get(child)?.add(parent);
  const ordered = [];
  const placed = new Set();
  const place = (table, path = new Set()) => {
    if (placed.has(table)) return;
    if (path.has(table)) throw new Error(`a cycle of references at ${table}`);
    path.add(table);
    for (const parent of parents.get(table) ?? []) place(parent, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of parents.keys()) place(table);
  return ordered;
}

async function columnsOf(client, table) {
  const { rows } = await client.query(
    `SELECT column_name AS name, data_type AS type, is_identity = 'YES' AS identity
     FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = $1
     ORDER BY ordinal_position`,
    [table],
  );
  return rows;
}

/** A SQLite value as the PostgreSQL column takes it. */
function toPostgres(value, type) {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return value === 1 || value === true;
  if (type === "bigint" || type === "integer") return Number(value);
  return value; // text and JSON text, bytea as a Buffer
}

/**
 * PostgreSQL stores no NUL in text; SQLite took one before the app refused
 * control characters (docs/decisions/1062-control-characters-refused-at-the-door.md).
 * Named here, row and column, rather than as PostgreSQL's "invalid byte
 * sequence": the person moving fixes that row in the SQLite file and copies again.
 */
function refuseNul(table, columns, rows) {
  for (const row of rows)
    for (const { name } of columns)
      if (typeof row[name] === "string" && row[name].includes("\u0000"))
        throw new Error(
          `${table}.${name} (id ${row.id ?? "?"}) holds a NUL character, which PostgreSQL cannot store: remove it from the SQLite file and copy again`,
        );
}

async function insertRows(client, table, columns, rows) {
  if (rows.length === 0) return;
  const names = columns.map((c) => `"${c.name}"`).join(", ");
  const values = [];
  const tuples = rows.map((row) => {
    const slots = columns.map((c) => {
      values.push(toPostgres(row[c.name], c.type));
      return `$${values.length}`;
    });
    return `(${slots.join(", ")})`;
  });
  await client.query(
    `INSERT INTO "${table}" (${names}) VALUES ${tuples.join(", ")}`,
    values,
  );
}

/** Identity columns continue after the highest copied id. */
async function moveSequences(client, table, columns) {
  for (const column of columns.filter((c) => c.identity))
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max("${column.name}"), 0) + 1, false) FROM "${table}"`,
      [`"${table}"`, column.name],
    );
}

async function main() {
  const at = process.argv.indexOf("--to");
  const to = at > 0 ? process.argv[at + 1] : undefined;
  if (!to || !/^postgres(ql)?:\/\//.test(to)) {
    console.error(
      "usage: npm run db:copy -- --to postgres://…  (reads DATABASE_PATH)",
    );
    process.exit(2);
  }
  const from = process.env.DATABASE_PATH ?? "./data/fairshake.db";
  try {
    await copySqliteToPostgres({ from, to });
    console.info(`copied ${from} into PostgreSQL`);
  } catch (error) {
    console.error(`db:copy: ${error.message}`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
