// Your data (docs/product-rules.md#your-data): everything of yours as JSON, built field by field so
// that nobody else's email, no hash and no token can slip in
// (docs/decisions/0910-your-data.md).
import { href } from "react-router";
import { messagesWrittenBy } from "../messages/message-export.server";
import { asc, eq, inArray, or, sql } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import {
  activityEvents,
  betParticipants,
  bets,
  friendships,
  ledgerEntries,
  passkeys,
  payments,
  pushSubscriptions,
  sessions,
  settlements,
  users,
  type User,
} from "~/db/schema";
import { DELETED_USER_NAME } from "~/domain/deleted-user";
import { DomainError } from "~/utils/errors";
import { displayNameSql } from "../accounts/display-name.server";
import { friendshipsOf, otherSideOf } from "../social/friend-pairs.server";
import { getNotificationPreferences } from "../notifications/notification-preferences.server";
import { getUserById, toUserJson } from "../accounts/user.server";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * Everything of `userId`'s, as one JSON-ready object. Written field by field
 * (never a whole row): no other person's email, no hash, no token.
 */
export async function exportAccountData(userId: number, now = Date.now()) {
  const user = await getUserById(userId);
  if (!user || user.deletedAt)
    throw new DomainError(401, "Authentication required");

  const betRows = await db
    .select()
    .from(bets)
    .where(
      or(
        eq(bets.refereeId, userId),
        sql`${bets.id} IN (SELECT bet_id FROM ${betParticipants} WHERE user_id = ${userId})`,
      ),
    )
    .orderBy(asc(bets.id));
  const betIds = betRows.map((b) => b.id);
  const people = await db
    .select({
      betId: betParticipants.betId,
      id: users.id,
      username: displayNameSql(),
      seat: betParticipants.seat,
    })
    .from(betParticipants)
    .innerJoin(users, eq(users.id, betParticipants.userId))
    .where(inArray(betParticipants.betId, betIds.length ? betIds : [-1]))
    .orderBy(asc(betParticipants.seat));
  const nameIds = new Set<number>(people.map((p) => p.id));
  for (const b of betRows) if (b.refereeId) nameIds.add(b.refereeId);
  const names = new Map(
    (
      await db
        .select({ id: users.id, username: displayNameSql() })
        .from(users)
        .where(inArray(users.id, [...nameIds, -1]))
    ).map((u) => [u.id, u.username]),
  );
  const person = (id: number | null) =>
    id === null ? null : { id, username: names.get(id) ?? DELETED_USER_NAME };

  const settlementRows = await db
    .select()
    .from(settlements)
    .where(inArray(settlements.betId, betIds.length ? betIds : [-1]))
    .orderBy(asc(settlements.betId));

  const paymentRows = await db
    .select()
    .from(payments)
    .where(or(eq(payments.payerId, userId), eq(payments.payeeId, userId)))
    .orderBy(asc(payments.id));

  const ledgerRows = await db
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .orderBy(asc(ledgerEntries.id));

  const friendRows = await db
    .select({
      status: friendships.status,
      requesterId: friendships.requesterId,
      addresseeId: friendships.addresseeId,
      createdAt: friendships.createdAt,
      respondedAt: friendships.respondedAt,
      otherName: displayNameSql(),
    })
    .from(friendships)
    .innerJoin(users, otherSideOf(userId))
    .where(friendshipsOf(userId))
    .orderBy(asc(friendships.id));

  const activity = await db
    .select()
    .from(activityEvents)
    .where(eq(activityEvents.userId, userId))
    .orderBy(asc(activityEvents.id));

  const pushRows = await db
    .select({
      endpoint: pushSubscriptions.endpoint,
      createdAt: pushSubscriptions.createdAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.id));

  const sessionRows = await db
    .select({
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(asc(sessions.createdAt));
  // Their own messages on bets (docs/product-rules.md#messages).
  const messageRows = await messagesWrittenBy(userId);
  // The passkeys: their names and dates, never a key or a credential id.
  const passkeyRows = await db
    .select({
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));

  return {
    format: "fairshake-export-1",
    exportedAt: new Date(now).toISOString(),
    profile: toUserJson(user),
    bets: betRows.map((b) => ({
      id: b.id,
      code: b.code,
      title: b.title,
      description: b.description,
      amountCents: b.amountCents,
      visibility: b.visibility,
      status: b.status,
      deadline: iso(b.deadline),
      createdAt: iso(b.createdAt),
      role:
        b.refereeId === userId
          ? "referee"
          : b.creatorId === userId
            ? "creator"
            : "participant",
      creator: person(b.creatorId),
      participants: people
        .filter((p) => p.betId === b.id)
        .map((p) => ({ id: p.id, username: p.username, seat: p.seat })),
      referee: person(b.refereeId),
      winner: person(b.winnerId),
      settledAt: iso(b.settledAt),
      voidedAt: iso(b.voidedAt),
      paymentDueAt: iso(b.paymentDueAt),
    })),
    settlements: settlementRows.map((s) => ({
      betId: s.betId,
      outcome: s.outcome,
      winner: person(s.winnerId),
      loser: person(s.loserId),
      proposedBy: person(s.proposedBy),
      notes: s.notes,
      proposedAt: iso(s.proposedAt),
      respondBy: iso(s.respondBy),
      resolution: s.resolution,
      settledAt: iso(s.settledAt),
      feeCents: s.feeCents,
      netCents: s.netCents,
      paymentStatus: s.paymentStatus,
    })),
    payments: paymentRows.map((p) => ({
      id: p.id,
      betId: p.betId,
      direction: p.payerId === userId ? "paid" : "received",
      provider: p.provider,
      amountCents: p.amountCents,
      status: p.status,
      createdAt: iso(p.createdAt),
      completedAt: iso(p.completedAt),
    })),
    ledgerEntries: ledgerRows.map((e) => ({
      id: e.id,
      paymentId: e.paymentId,
      betId: e.betId,
      kind: e.kind,
      amountCents: e.amountCents,
      createdAt: iso(e.createdAt),
    })),
    friends: friendRows
      .filter((f) => f.status === "accepted")
      .map((f) => ({ username: f.otherName, since: iso(f.respondedAt) })),
    friendRequests: friendRows
      .filter((f) => f.status === "pending")
      .map((f) => ({
        username: f.otherName,
        direction: f.requesterId === userId ? "sent" : "received",
        createdAt: iso(f.createdAt),
      })),
    activity: activity.map((a) => ({
      type: a.type,
      message: a.message,
      betId: a.betId,
      read: a.read,
      createdAt: iso(a.createdAt),
    })),
    notificationPreferences: await getNotificationPreferences(userId),
    pushSubscriptions: pushRows.map((p) => ({
      endpointHost: hostOf(p.endpoint),
      createdAt: iso(p.createdAt),
    })),
    passkeys: passkeyRows.map((p) => ({
      name: p.name,
      createdAt: iso(p.createdAt),
      lastUsedAt: iso(p.lastUsedAt),
    })),
    messages: messageRows.map((m) => ({
      betId: m.betId,
      body: m.deletedAt ? null : m.body,
      deleted: m.deletedAt !== null,
      createdAt: iso(m.createdAt),
      photos: m.photos.map((p) => ({
        url: href("/api/bets/:id/messages/:messageId/photos/:photoId", {
          id: String(m.betId),
          messageId: String(m.id),
          photoId: String(p.id),
        }),
        width: p.width,
        height: p.height,
      })),
    })),
    sessions: sessionRows.map((s) => ({
      device: s.userAgent,
      createdAt: iso(s.createdAt),
      lastSeenAt: iso(s.lastSeenAt),
      expiresAt: iso(s.expiresAt),
    })),
  };
}

function hostOf(endpoint: string): string | null {
  try {
    return new URL(endpoint).host;
  } catch {
    return null;
  }
}

/** `fairshake-data-{username}-{date}.json`, safe in a header. */
export function exportFileName(user: Pick<User, "username">, now = Date.now()) {
  const safe = user.username.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 50);
  return `fairshake-data-${safe}-${new Date(now).toISOString().slice(0, 10)}.json`;
}
