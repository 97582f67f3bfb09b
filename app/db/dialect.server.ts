// What raw SQL must differ between SQLite and PostgreSQL, one function each
// (docs/decisions/1020-two-engines.md): raw SQL elsewhere is written once
// for both engines through these.
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { engine, type Db, type Tx } from "./connections.server";

/** The SQLSTATE of a PostgreSQL error, looked for through drizzle's wrapping. */
export function postgresCode(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code))
      return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** How many rows an awaited insert, update or delete changed, on either engine. */
export function changedRows(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return Number(r.changes ?? r.rowCount ?? 0);
}

/** The rows of a raw SQL query, on either engine (raw SQL is written to run on both). */
export async function selectRows<T>(runner: Db | Tx, query: SQL): Promise<T[]> {
  if (engine === "postgres")
    return (await (runner as Db).execute(query)).rows as T[];
  return (runner as unknown as { all<R>(q: SQL): R[] }).all<T>(query);
}

/** Runs a raw SQL statement that returns no rows, on either engine. */
export async function executeSql(runner: Db | Tx, query: SQL): Promise<number> {
  if (engine === "postgres")
    return (await (runner as Db).execute(query)).rowCount ?? 0;
  return (runner as unknown as { run(q: SQL): { changes: number } }).run(query)
    .changes;
}

/**
 * `column IN (ids)` with all the ids bound as one parameter, so one prepared
 * statement serves any number of them; bind with `idListParam`.
 */
export function inIdList(column: SQLWrapper, placeholder: string): SQL {
  return engine === "postgres"
    ? sql`${column} = any(${sql.placeholder(placeholder)}::int[])`
    : sql`${column} in (select value from json_each(${sql.placeholder(placeholder)}))`;
}

/**
 * A column holding a JSON array of one object per row of `fromWhere` (a
 * correlated `FROM … WHERE …`), read back as objects on either engine:
 * json_agg or json_group_array. The order of the rows is not promised.
 */
export function jsonRowsColumn<Row>(
  fields: Record<string, SQLWrapper>,
  fromWhere: SQL,
): SQL<Row[]> {
  const pairs = sql.join(
    // Keys as literals: PostgreSQL cannot type a bound key of json_build_object.
    Object.entries(fields).map(([name, value]) => {
      if (!/^\w+$/.test(name)) throw new Error(`Bad JSON key ${name}`);
      return sql`${sql.raw(`'${name}'`)}, ${value}`;
    }),
    sql`, `,
  );
  const column =
    engine === "postgres"
      ? sql`coalesce((select json_agg(json_build_object(${pairs})) ${fromWhere}), '[]'::json)`
      : sql`coalesce((select json_group_array(json_object(${pairs})) ${fromWhere}), '[]')`;
  // node-postgres parses json itself; SQLite hands back text.
  return column.mapWith((value: unknown) =>
    typeof value === "string" ? (JSON.parse(value) as Row[]) : (value as Row[]),
  );
}

export function idListParam(ids: number[]): unknown {
  return engine === "postgres" ? ids : JSON.stringify(ids);
}

/** Where `needle` first occurs in `text` (1-based, 0 when absent): instr() or strpos(). */
export function textPosition(text: SQLWrapper, needle: unknown): SQL {
  return engine === "postgres"
    ? sql`strpos(${text}, ${needle})`
    : sql`instr(${text}, ${needle})`;
}
