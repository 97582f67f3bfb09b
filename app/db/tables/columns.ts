// Column shapes every table shares.
import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

export const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsecond') * 1000 as integer))`);
