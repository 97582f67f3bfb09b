// How a person is named to others. A closed account (docs/product-rules.md#your-data) keeps its
// row, so bets, settlements and ledger entries stay whole, but it is shown as
// 'Deleted user' everywhere: every model that reads a name for display reads
// it through here, in SQL (`displayNameSql`) or from a loaded row
// (`displayName`), never `users.username` directly.
import { eq, sql, type SQL } from "drizzle-orm";
import type { Db, Tx } from "~/db/connections.server";
import { users } from "~/db/schema";
import { DELETED_USER_NAME } from "~/domain/deleted-user";

type UsersLike = {
  username: typeof users.username;
  deletedAt: typeof users.deletedAt;
};

/** The display name as a column: `username`, or 'Deleted user' once closed. */
export function displayNameSql(table: UsersLike = users): SQL<string> {
  return sql<string>`CASE WHEN ${table.deletedAt} IS NOT NULL THEN ${DELETED_USER_NAME} ELSE ${table.username} END`;
}

/** The display name of a loaded user row. */
export function displayName(user: {
  username: string;
  deletedAt?: Date | null;
}): string {
  return user.deletedAt ? DELETED_USER_NAME : user.username;
}

/**
 * How a person is named in a notice about what they did: their display
 * name, read through `runner` (a transaction, or `db`), or 'Someone' when
 * there is no such person (or no person at all).
 */
export async function nameOf(
  runner: Tx | Db,
  userId: number | null,
): Promise<string> {
  if (userId === null) return "Someone";
  const [row] = await runner
    .select({ name: displayNameSql() })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.name ?? "Someone";
}
