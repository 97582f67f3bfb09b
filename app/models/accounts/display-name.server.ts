// How a person is named to others. A closed account (docs/product-rules.md#your-data) keeps its
// row, so bets, settlements and ledger entries stay whole, but it is shown as
// 'Deleted user' everywhere: every model that reads a name for display reads
// it through here, in SQL (`displayNameSql`) or from a loaded row
// (`displayName`), never `users.username` directly.
import { sql, type SQL } from "drizzle-orm";
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
