// The PostgreSQL tables are generated from the SQLite ones
// (scripts/db/pg-tables.mjs, docs/decisions/1020-two-engines.md): the
// committed twins must be what the generator writes today, and a row reads
// the same on both engines (checked by the compiler: `npm run typecheck`).
import { execFileSync } from "node:child_process";
import { is, Table } from "drizzle-orm";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as sqliteTables from "~/db/sqlite-schema";
import * as pgTables from "~/db/pg/schema";

type Row<T> = T extends { $inferSelect: infer R } ? R : never;
type TableKeys<T> = {
  [K in keyof T]: T[K] extends { $inferSelect: unknown } ? K : never;
}[keyof T];
type Tables = TableKeys<typeof sqliteTables>;

describe("the PostgreSQL twins of the tables", () => {
  it("are what scripts/db/pg-tables.mjs writes from the SQLite tables", () => {
    expect(() =>
      execFileSync(process.execPath, ["scripts/db/pg-tables.mjs", "--check"], {
        stdio: "pipe",
      }),
    ).not.toThrow();
  });

  it("has the same tables, and each row has the same type on both engines", () => {
    const names = (tables: object) =>
      Object.entries(tables)
        .filter(([, v]) => is(v, Table))
        .map(([k]) => k)
        .sort();
    expect(names(pgTables)).toEqual(names(sqliteTables));
    expect(names(pgTables).length).toBeGreaterThan(20);
    // Compile-time: a column that changed type on one side fails typecheck.
    expectTypeOf<{
      [K in Tables]: Row<(typeof sqliteTables)[K]>;
    }>().toEqualTypeOf<{
      [K in Tables]: Row<(typeof pgTables)[K]>;
    }>();
  });
});
