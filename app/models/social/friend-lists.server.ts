// Friends seen from one person: the friends list with the head-to-head
// record, incoming requests, and search with each result's relation.
import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { selectRows, textPosition } from "~/db/dialect.server";
import { friendships, users } from "~/db/schema";
import { parseSearchQuery, SEARCH_LIMIT } from "./friend-input.server";
import {
  friendshipsOf,
  incomingRequestsOf,
  otherSideOf,
} from "./friend-pairs.server";
import { toPublicUser } from "../accounts/user.server";
import type { PublicUser } from "~/domain/user";
import type {
  FriendEntry,
  HeadToHead,
  Relation,
  RequestEntry,
  SearchResult,
} from "~/domain/friends";

const publicColumns = {
  id: users.id,
  username: users.username,
  avatarUrl: users.avatarUrl,
  winCount: users.winCount,
  lossCount: users.lossCount,
  deletedAt: users.deletedAt,
};

/**
 * For each other person, the settled bets the two of you were both in:
 * your wins and losses against them (beyond the product rules).
 */
export async function headToHead(
  userId: number,
): Promise<Map<number, HeadToHead>> {
  const rows = await selectRows<{
    other: number;
    wins: number;
    losses: number;
  }>(
    db,
    sql`
    SELECT p2.user_id AS other,
           sum(CASE WHEN b.winner_id = ${userId} THEN 1 ELSE 0 END) AS wins,
           sum(CASE WHEN b.winner_id = p2.user_id THEN 1 ELSE 0 END) AS losses
    FROM bets b
    JOIN bet_participants p1 ON p1.bet_id = b.id AND p1.user_id = ${userId}
    JOIN bet_participants p2 ON p2.bet_id = b.id AND p2.user_id <> ${userId}
    WHERE b.status = 'settled'
    GROUP BY p2.user_id`,
  );
  return new Map(
    rows.map((r) => [r.other, { wins: r.wins ?? 0, losses: r.losses ?? 0 }]),
  );
}

/** Accepted friends of `userId`, by username, with the head-to-head record. */
export async function listFriends(userId: number): Promise<FriendEntry[]> {
  const rows = await db
    .select({ id: friendships.id, friend: publicColumns })
    .from(friendships)
    .innerJoin(users, otherSideOf(userId))
    .where(and(eq(friendships.status, "accepted"), friendshipsOf(userId)))
    .orderBy(asc(sql`lower(${users.username})`));
  const record = await headToHead(userId);
  return rows.map((r) => ({
    id: r.id,
    friend: toPublicUser(r.friend),
    headToHead: record.get(r.friend.id) ?? { wins: 0, losses: 0 },
  }));
}

/** Requests others sent to `userId`, still waiting for an answer; oldest first. */
export async function listIncomingRequests(
  userId: number,
): Promise<RequestEntry[]> {
  return (
    await db
      .select({
        id: friendships.id,
        friend: publicColumns,
        createdAt: friendships.createdAt,
      })
      .from(friendships)
      .innerJoin(users, eq(users.id, friendships.requesterId))
      .where(incomingRequestsOf(userId))
      .orderBy(asc(friendships.id))
  ).map((r) => ({ ...r, friend: toPublicUser(r.friend) }));
}

export async function countIncomingRequests(userId: number): Promise<number> {
  return (
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(friendships)
        .where(incomingRequestsOf(userId))
        .limit(1)
    )[0]?.n ?? 0
  );
}

/**
 * People whose username contains `query` (case-insensitive; prefix matches
 * first), never `userId` and never an email. A text position rather than LIKE, so
 * '%' and '_' in a query are plain characters.
 */
export async function searchUsers({
  userId,
  query,
}: {
  userId: number;
  query: string;
}): Promise<SearchResult[]> {
  const q = parseSearchQuery(query).toLowerCase();
  const position = textPosition(sql`lower(${users.username})`, q);
  const rows = await db
    .select(publicColumns)
    .from(users)
    .where(
      and(ne(users.id, userId), isNull(users.deletedAt), sql`${position} > 0`),
    )
    .orderBy(
      asc(sql`CASE WHEN ${position} = 1 THEN 0 ELSE 1 END`),
      asc(sql`lower(${users.username})`),
    )
    .limit(SEARCH_LIMIT);
  const relations = new Map<number, Relation>();
  if (rows.length) {
    const mine = await db
      .select()
      .from(friendships)
      .where(friendshipsOf(userId));
    for (const f of mine) {
      const other = f.requesterId === userId ? f.addresseeId : f.requesterId;
      relations.set(
        other,
        f.status === "accepted"
          ? "friend"
          : f.requesterId === userId
            ? "sent"
            : "received",
      );
    }
  }
  return rows.map((r) => ({
    ...toPublicUser(r),
    relation: relations.get(r.id) ?? "none",
  }));
}

/** docs/api.md: `[{id, friend: {id, username, winCount, lossCount}}]`. */
export function toFriendJson(entry: {
  id: number;
  friend: PublicUser;
  headToHead?: HeadToHead;
  /** docs/product-rules.md#getting-paid: the friend's payment record, when the caller looked it up. */
  paymentRecord?: unknown;
}) {
  return {
    id: entry.id,
    friend: {
      id: entry.friend.id,
      username: entry.friend.username,
      avatarUrl: entry.friend.avatarUrl,
      winCount: entry.friend.winCount,
      lossCount: entry.friend.lossCount,
      ...(entry.paymentRecord ? { paymentRecord: entry.paymentRecord } : {}),
    },
    ...(entry.headToHead ? { headToHead: entry.headToHead } : {}),
  };
}

/** The creator's friends by name: who may referee their bet (docs/product-rules.md#referee). */
export async function refereeChoices(userId: number) {
  return (await listFriends(userId))
    .map((f) => ({ id: f.friend.id, username: f.friend.username }))
    .sort((a, b) => a.username.localeCompare(b.username));
}
