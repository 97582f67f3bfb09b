// The friendships row from either side: one row per pair, whichever way it
// was asked, so "my friendships" and "the other person" are written once
// here for every query that needs them (friends, search, the data export).
import { and, eq, or, sql } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { friendships, users } from "~/db/schema";

/** The pair's row, whoever asked whom. */
export async function pairRow(a: number, b: number) {
  return (
    await db
      .select()
      .from(friendships)
      .where(
        or(
          and(eq(friendships.requesterId, a), eq(friendships.addresseeId, b)),
          and(eq(friendships.requesterId, b), eq(friendships.addresseeId, a)),
        ),
      )
      .limit(1)
  )[0];
}

/** Rows in which `userId` is either side. */
export const friendshipsOf = (userId: number) =>
  or(eq(friendships.requesterId, userId), eq(friendships.addresseeId, userId));

/** Join condition: `users` is the other side of `userId`'s row. */
export const otherSideOf = (userId: number) =>
  sql`${users.id} = CASE WHEN ${friendships.requesterId} = ${userId}
    THEN ${friendships.addresseeId} ELSE ${friendships.requesterId} END`;

/** The still-pending request `requesterId` sent to `addresseeId`. */
export const pendingRequest = (requesterId: number, addresseeId: number) =>
  and(
    eq(friendships.requesterId, requesterId),
    eq(friendships.addresseeId, addresseeId),
    eq(friendships.status, "pending"),
  );

/** Requests others sent to `userId`, still waiting for an answer. */
export const incomingRequestsOf = (userId: number) =>
  and(eq(friendships.addresseeId, userId), eq(friendships.status, "pending"));
