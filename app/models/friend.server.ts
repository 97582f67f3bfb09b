// Friends: requests, the symmetric friendship, search and the head-to-head
// record. One friendships row per pair (a unique index on min/max of the two
// ids), so two people asking each other at once cannot make two rows.
import { and, asc, eq, isNull, ne, or, sql } from "drizzle-orm";
import { z } from "zod";
import { db, immediate } from "~/db/client.server";
import { friendships, users } from "~/db/schema";
import { recordActivity } from "./activity.server";
import { assertAccountOpen } from "./closed-account.server";
import { toPublicUser } from "./user.server";
import type { PublicUser } from "~/domain/user";
import type {
  FriendEntry,
  HeadToHead,
  Relation,
  RequestEntry,
  SearchResult,
} from "~/domain/friends";
import { conflict, invalid, notFound } from "~/utils/errors";

export const SEARCH_MIN = 2;
export const SEARCH_MAX = 50;
export const SEARCH_LIMIT = 20;

export const FRIEND_MESSAGES = {
  self: "You cannot send a friend request to yourself.",
  userNotFound: "User not found",
  alreadyFriends: "You are already friends with this user.",
  alreadyRequested: "You have already sent this user a friend request.",
  theyAsked:
    "This user has already sent you a friend request — accept it instead.",
  requestNotFound: "Friend request not found",
  queryTooShort: "Search query too short",
} as const;

const FriendIdSchema = z.object({
  friendId: z.coerce
    .number({ error: "friendId must be a user id" })
    .int("friendId must be a user id")
    .positive("friendId must be a user id")
    .max(Number.MAX_SAFE_INTEGER, "friendId must be a user id"),
});

/** Reads `{friendId}` from a JSON body or a form: 400 when it is not an id. */
export function parseFriendId(input: unknown): number {
  const raw =
    input && typeof input === "object"
      ? (input as Record<string, unknown>).friendId
      : undefined;
  // z.coerce would read "" and null as 0 and true as 1; only digits and numbers pass.
  const value =
    typeof raw === "number" || (typeof raw === "string" && /^\d+$/.test(raw))
      ? raw
      : Number.NaN;
  const parsed = FriendIdSchema.safeParse({ friendId: value });
  if (!parsed.success)
    throw invalid("friendId must be a user id", {
      friendId: ["friendId must be a user id"],
    });
  return parsed.data.friendId;
}

function pairRow(a: number, b: number) {
  return db
    .select()
    .from(friendships)
    .where(
      or(
        and(eq(friendships.requesterId, a), eq(friendships.addresseeId, b)),
        and(eq(friendships.requesterId, b), eq(friendships.addresseeId, a)),
      ),
    )
    .get();
}

/** Sends a request from `userId` to `friendId`. 400 self, 404 unknown, 409 exists. */
export function sendFriendRequest({
  userId,
  friendId,
}: {
  userId: number;
  friendId: number;
}) {
  if (userId === friendId) throw invalid(FRIEND_MESSAGES.self);
  return immediate((tx) => {
    assertAccountOpen(tx, userId);
    const target = tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, friendId), isNull(users.deletedAt)))
      .get();
    // A closed account (ruling 32) cannot be befriended.
    if (!target) throw notFound(FRIEND_MESSAGES.userNotFound);
    const existing = pairRow(userId, friendId);
    if (existing) {
      if (existing.status === "accepted")
        throw conflict(FRIEND_MESSAGES.alreadyFriends);
      if (existing.requesterId === userId)
        throw conflict(FRIEND_MESSAGES.alreadyRequested);
      throw conflict(FRIEND_MESSAGES.theyAsked);
    }
    const row = tx
      .insert(friendships)
      .values({ requesterId: userId, addresseeId: friendId, status: "pending" })
      .returning()
      .get();
    const me = tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, userId))
      .get();
    recordActivity(tx, {
      userId: friendId,
      actorId: userId,
      type: "friend_request_received",
      message: `${me?.username ?? "Someone"} sent you a friend request`,
    });
    return row;
  });
}

/** The still-pending request `requesterId` sent to `addresseeId`. */
const pendingRequest = (requesterId: number, addresseeId: number) =>
  and(
    eq(friendships.requesterId, requesterId),
    eq(friendships.addresseeId, addresseeId),
    eq(friendships.status, "pending"),
  );

/** Accepts the pending request that `requesterId` sent to `userId`. */
export function acceptFriendRequest({
  userId,
  requesterId,
}: {
  userId: number;
  requesterId: number;
}) {
  return immediate((tx) => {
    const updated = tx
      .update(friendships)
      .set({ status: "accepted", respondedAt: new Date() })
      .where(pendingRequest(requesterId, userId))
      .returning()
      .get();
    if (!updated) throw notFound(FRIEND_MESSAGES.requestNotFound);
    const me = tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, userId))
      .get();
    recordActivity(tx, {
      userId: requesterId,
      actorId: userId,
      type: "friend_request_accepted",
      message: `${me?.username ?? "Someone"} accepted your friend request`,
    });
    return updated;
  });
}

/** Declines (deletes) the pending request `requesterId` sent to `userId`. */
export function declineFriendRequest({
  userId,
  requesterId,
}: {
  userId: number;
  requesterId: number;
}) {
  return immediate((tx) => {
    const deleted = tx
      .delete(friendships)
      .where(pendingRequest(requesterId, userId))
      .returning()
      .get();
    if (!deleted) throw notFound(FRIEND_MESSAGES.requestNotFound);
    return deleted;
  });
}

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
 * your wins and losses against them (beyond SPEC).
 */
export function headToHead(userId: number): Map<number, HeadToHead> {
  const rows = db.all<{ other: number; wins: number; losses: number }>(sql`
    SELECT p2.user_id AS other,
           sum(CASE WHEN b.winner_id = ${userId} THEN 1 ELSE 0 END) AS wins,
           sum(CASE WHEN b.winner_id = p2.user_id THEN 1 ELSE 0 END) AS losses
    FROM bets b
    JOIN bet_participants p1 ON p1.bet_id = b.id AND p1.user_id = ${userId}
    JOIN bet_participants p2 ON p2.bet_id = b.id AND p2.user_id <> ${userId}
    WHERE b.status = 'settled'
    GROUP BY p2.user_id`);
  return new Map(
    rows.map((r) => [r.other, { wins: r.wins ?? 0, losses: r.losses ?? 0 }]),
  );
}

/** Accepted friends of `userId`, by username, with the head-to-head record. */
export function listFriends(userId: number): FriendEntry[] {
  const rows = db
    .select({ id: friendships.id, friend: publicColumns })
    .from(friendships)
    .innerJoin(
      users,
      sql`${users.id} = CASE WHEN ${friendships.requesterId} = ${userId}
        THEN ${friendships.addresseeId} ELSE ${friendships.requesterId} END`,
    )
    .where(
      and(
        eq(friendships.status, "accepted"),
        or(
          eq(friendships.requesterId, userId),
          eq(friendships.addresseeId, userId),
        ),
      ),
    )
    .orderBy(asc(sql`lower(${users.username})`))
    .all();
  const record = headToHead(userId);
  return rows.map((r) => ({
    id: r.id,
    friend: toPublicUser(r.friend),
    headToHead: record.get(r.friend.id) ?? { wins: 0, losses: 0 },
  }));
}

/** Requests others sent to `userId`, still waiting for an answer; oldest first. */
export function listIncomingRequests(userId: number): RequestEntry[] {
  return db
    .select({
      id: friendships.id,
      friend: publicColumns,
      createdAt: friendships.createdAt,
    })
    .from(friendships)
    .innerJoin(users, eq(users.id, friendships.requesterId))
    .where(
      and(
        eq(friendships.addresseeId, userId),
        eq(friendships.status, "pending"),
      ),
    )
    .orderBy(asc(friendships.id))
    .all()
    .map((r) => ({ ...r, friend: toPublicUser(r.friend) }));
}

export function countIncomingRequests(userId: number): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(friendships)
      .where(
        and(
          eq(friendships.addresseeId, userId),
          eq(friendships.status, "pending"),
        ),
      )
      .get()?.n ?? 0
  );
}

/** 400 'Search query too short' under 2 characters (after trimming). */
export function parseSearchQuery(raw: unknown): string {
  const q = typeof raw === "string" ? raw.trim() : "";
  if ([...q].length < SEARCH_MIN)
    throw invalid(FRIEND_MESSAGES.queryTooShort, {
      q: [FRIEND_MESSAGES.queryTooShort],
    });
  return [...q].slice(0, SEARCH_MAX).join("");
}

/**
 * People whose username contains `query` (case-insensitive; prefix matches
 * first), never `userId` and never an email. instr() rather than LIKE, so
 * '%' and '_' in a query are plain characters.
 */
export function searchUsers({
  userId,
  query,
}: {
  userId: number;
  query: string;
}): SearchResult[] {
  const q = parseSearchQuery(query).toLowerCase();
  const position = sql`instr(lower(${users.username}), ${q})`;
  const rows = db
    .select(publicColumns)
    .from(users)
    .where(
      and(ne(users.id, userId), isNull(users.deletedAt), sql`${position} > 0`),
    )
    .orderBy(
      asc(sql`CASE WHEN ${position} = 1 THEN 0 ELSE 1 END`),
      asc(sql`lower(${users.username})`),
    )
    .limit(SEARCH_LIMIT)
    .all();
  const relations = new Map<number, Relation>();
  if (rows.length) {
    const mine = db
      .select()
      .from(friendships)
      .where(
        or(
          eq(friendships.requesterId, userId),
          eq(friendships.addresseeId, userId),
        ),
      )
      .all();
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

/** DESIGN §3: `[{id, friend: {id, username, winCount, lossCount}}]`. */
export function toFriendJson(entry: {
  id: number;
  friend: PublicUser;
  headToHead?: HeadToHead;
  /** Ruling 25: the friend's payment record, when the caller looked it up. */
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

/** The creator's friends by name: who may referee their bet (ruling 23). */
export function refereeChoices(userId: number) {
  return listFriends(userId)
    .map((f) => ({ id: f.friend.id, username: f.friend.username }))
    .sort((a, b) => a.username.localeCompare(b.username));
}
