// A request checks its session before it reads its body; the account may be
// closed in between (docs/product-rules.md#your-data). The acts that would tie a closed account to
// someone again (creating or joining a bet, asking a friend, renaming) check
// again inside their own transaction, where no close can interleave.
import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import type { db } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { users } from "~/db/schema";
import { DomainError } from "~/utils/errors";

export async function assertAccountOpen(tx: Tx | typeof db, userId: number) {
  const row = (
    await tx
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1)
  )[0];
  if (!row || row.deletedAt)
    throw new DomainError(401, "Authentication required");
}

/**
 * As `assertAccountOpen`, for a body that runs READ COMMITTED on PostgreSQL
 * (joining, creating a bet): the check is a conditional write on the
 * person's own row, so it holds until the transaction ends. A close that
 * committed first makes it refuse; a close running alongside (SERIALIZABLE,
 * which anonymises this row) waits for it, finds the row changed and runs
 * again, now seeing the new bet or seat. A plain read would let both win.
 */
export async function holdAccountOpen(tx: Tx, userId: number) {
  const held = await tx
    .update(users)
    .set({ deletedAt: null })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (changedRows(held) !== 1)
    throw new DomainError(401, "Authentication required");
}
