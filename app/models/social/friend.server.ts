// Friends: the requests (send, accept, decline) that make the symmetric
// friendship. One friendships row per pair (a unique index on min/max of the
// two ids), so two people asking each other at once cannot make two rows.
// The input and messages are in friend-input.server.ts; the lists, search
// and head-to-head record in friend-lists.server.ts.
import { nameOf } from "../accounts/display-name.server";
import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { immediate } from "~/db/transactions.server";
import { friendships, users } from "~/db/schema";
import { recordActivity } from "./activity.server";
import { assertAccountOpen } from "../accounts/closed-account.server";
import { FRIEND_MESSAGES } from "./friend-input.server";
import { pairRow, pendingRequest } from "./friend-pairs.server";
import { conflict, invalid, notFound } from "~/utils/errors";
import { announceFriends } from "../notifications/live-events.server";

/** "{from's name} {did}" in `to`'s activity, in the same transaction. */
async function tellOther(
  tx: Tx,
  {
    to,
    from,
    type,
  }: {
    to: number;
    from: number;
    type: "friend_request_received" | "friend_request_accepted";
  },
) {
  const actor = await nameOf(tx, from);
  await recordActivity(tx, {
    userId: to,
    actorId: from,
    type,
    text: {
      key:
        type === "friend_request_received"
          ? "notify.friendRequest"
          : "notify.friendAccepted",
      values: { actor },
    },
  });
}

/** Sends a request from `userId` to `friendId`. 400 self, 404 unknown, 409 exists. */
export async function sendFriendRequest({
  userId,
  friendId,
}: {
  userId: number;
  friendId: number;
}) {
  if (userId === friendId) throw invalid(FRIEND_MESSAGES.self);
  return await immediate(async (tx) => {
    await assertAccountOpen(tx, userId);
    const target = (
      await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, friendId), isNull(users.deletedAt)))
        .limit(1)
    )[0];
    // A closed account (docs/product-rules.md#your-data) cannot be befriended.
    if (!target) throw notFound(FRIEND_MESSAGES.userNotFound);
    const existing = await pairRow(userId, friendId);
    if (existing) {
      if (existing.status === "accepted")
        throw conflict(FRIEND_MESSAGES.alreadyFriends);
      if (existing.requesterId === userId)
        throw conflict(FRIEND_MESSAGES.alreadyRequested);
      throw conflict(FRIEND_MESSAGES.theyAsked);
    }
    const row = (
      await tx
        .insert(friendships)
        .values({
          requesterId: userId,
          addresseeId: friendId,
          status: "pending",
        })
        .returning()
    )[0]!;
    await tellOther(tx, {
      to: friendId,
      from: userId,
      type: "friend_request_received",
    });
    await announceFriends(tx, userId, friendId);
    return row;
  });
}

/** The request `requesterId` sent to `userId`, as the one answering names it. */
type PendingRequest = { userId: number; requesterId: number };

/** Accepts the pending request that `requesterId` sent to `userId`. */
export async function acceptFriendRequest({
  userId,
  requesterId,
}: PendingRequest) {
  return await immediate(async (tx) => {
    const updated = (
      await tx
        .update(friendships)
        .set({ status: "accepted", respondedAt: new Date() })
        .where(pendingRequest(requesterId, userId))
        .returning()
    )[0]!;
    if (!updated) throw notFound(FRIEND_MESSAGES.requestNotFound);
    await tellOther(tx, {
      to: requesterId,
      from: userId,
      type: "friend_request_accepted",
    });
    await announceFriends(tx, userId, requesterId);
    return updated;
  });
}

/** Declines (deletes) the pending request `requesterId` sent to `userId`. */
export async function declineFriendRequest({
  userId,
  requesterId,
}: PendingRequest) {
  return await immediate(async (tx) => {
    const deleted = (
      await tx
        .delete(friendships)
        .where(pendingRequest(requesterId, userId))
        .returning()
    )[0]!;
    if (!deleted) throw notFound(FRIEND_MESSAGES.requestNotFound);
    await announceFriends(tx, userId, requesterId);
    return deleted;
  });
}
