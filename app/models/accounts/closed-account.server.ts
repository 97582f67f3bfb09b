// A request checks its session before it reads its body; the account may be
// closed in between (docs/product-rules.md#your-data). The acts that would tie a closed account to
// someone again (creating or joining a bet, asking a friend, renaming) check
// again inside their own transaction, where no close can interleave.
import { eq } from "drizzle-orm";
import type { db, Tx } from "~/db/client.server";
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
