// PostgreSQL's versions of the column shapes SQLite writes natively: an
// instant is a bigint of epoch milliseconds on both engines, so raw SQL and
// `npm run db:copy` read the same numbers (docs/decisions/1020-two-engines.md).
import { sql } from "drizzle-orm";
import { customType } from "drizzle-orm/pg-core";

export const epochMs = customType<{ data: Date; driverData: string | number }>({
  dataType: () => "bigint",
  toDriver: (value) => value.getTime(),
  fromDriver: (value) => new Date(Number(value)),
});

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

export const createdAt = () =>
  epochMs("created_at")
    .notNull()
    .default(
      sql`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`,
    );
