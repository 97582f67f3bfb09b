// Which unique index refused a write, read from the database driver's error
// rather than from its wording. Models compare the answer with an index name
// from the schema, so a race that a check lost becomes the same 409 the check
// would have given (never a 500).
//
// SQLite names an expression index ("UNIQUE constraint failed: index 'x'")
// but a plain one only by its columns ("… failed: users.username_skeleton"),
// so those are mapped back to the index through the schema. Drizzle wraps the
// driver's error, so the chain of causes is walked. PostgreSQL's error 23505
// carries the constraint's name as is.
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./sqlite-schema";

type DriverError = {
  code?: unknown;
  message?: unknown;
  constraint?: unknown;
  cause?: unknown;
};

const byColumns = new Map<string, string>();
for (const value of Object.values(schema)) {
  let config: ReturnType<typeof getTableConfig>;
  try {
    config = getTableConfig(value as SQLiteTable);
  } catch {
    continue; // not a table (a type-only export has no value; enums do)
  }
  if (!config?.indexes) continue;
  for (const index of config.indexes) {
    if (!index.config.unique) continue;
    const columns = index.config.columns.map((c) =>
      "name" in c ? `${config.name}.${c.name}` : null,
    );
    if (columns.every(Boolean))
      byColumns.set(columns.join(", "), index.config.name);
  }
  for (const column of config.columns)
    if (column.isUnique && column.uniqueName)
      byColumns.set(`${config.name}.${column.name}`, column.uniqueName);
}

/** The name of the unique index a write broke, or null for any other error. */
export function violatedUniqueIndex(error: unknown): string | null {
  for (let e = error as DriverError | undefined, depth = 0; e && depth < 5;) {
    if (e.code === "23505" && typeof e.constraint === "string")
      return e.constraint;
    if (
      e.code === "SQLITE_CONSTRAINT_UNIQUE" &&
      typeof e.message === "string"
    ) {
      const target = e.message.replace(/^UNIQUE constraint failed: /, "");
      const named = /^index '(.+)'$/.exec(target);
      return named ? named[1]! : (byColumns.get(target) ?? target);
    }
    e = e.cause as DriverError | undefined;
    depth += 1;
  }
  return null;
}
