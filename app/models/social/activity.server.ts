// What happened that another person should know. Written by the models that
// change things (in the same transaction as the change), read by the
// Activity tab and the header bell. Marking read is a POST, never a GET.
import { and, desc, eq, sql } from "drizzle-orm";
import { engine, type Tx } from "~/db/connections.server";
import { db, immediate, preparedOnce } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { activityEvents, sessions } from "~/db/schema";
import { enqueueNotifications } from "../notifications/outbox.server";
import { href } from "react-router";
import { announceActivity } from "../notifications/live-events.server";
import { writeText, type Words } from "~/messaging/activity-text.server";
import { liveResumePoint } from "../notifications/live-streams.server";

export type ActivityType =
  | "bet_joined"
  | "settlement_proposed"
  | "settlement_approved"
  | "settlement_rejected"
  | "bet_settled"
  | "settlement_reminder"
  | "referee_requested"
  | "referee_ruled"
  | "payment_due"
  | "payment_overdue"
  | "payment_nudge"
  | "payment_received"
  | "friend_request_received"
  | "friend_request_accepted"
  | "bet_message";

export async function recordActivity(
  tx: Tx | typeof db,
  event: {
    userId: number;
    actorId: number | null;
    type: ActivityType;
    /**
     * The words, as a catalog key and values: kept with the event, so its
     * email and push are written in the recipient's language when they go
     * out; `message` keeps them in English.
     */
    text: Words;
    betId?: number | null;
  },
) {
  const { text, ...rest } = event;
  const written = (
    await tx
      .insert(activityEvents)
      .values({
        ...rest,
        message: writeText(text, "en"),
        data: text,
        betId: event.betId ?? null,
      })
      .returning({ id: activityEvents.id, type: activityEvents.type })
  )[0]!;
  // The outbox row is written with the event: both commit, or neither.
  await enqueueNotifications(tx, written);
  // The person's open pages hear it (the header's unread count, Activity).
  await announceActivity(tx, event.userId);
}

// The header bell asks on every page: one prepared statement, built once.
const unreadCount = preparedOnce(() =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(activityEvents)
    .where(
      and(
        eq(activityEvents.userId, sql.placeholder("userId")),
        eq(activityEvents.read, false),
      ),
    )
    .prepare("activity_unreadCount"),
);

export async function countUnreadActivity(userId: number): Promise<number> {
  return (await unreadCount().execute({ userId }))[0]?.n ?? 0;
}

// The same count for whoever a session is for: the header's, on SQLite.
const unreadBySession = preparedOnce(() =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(activityEvents)
    .innerJoin(sessions, eq(sessions.userId, activityEvents.userId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder("hash")),
        eq(activityEvents.read, false),
      ),
    )
    .prepare("activity_unreadBySession"),
);

/**
 * What the app's header reads on every page, before the page's own data:
 * where the page stands among live events (liveResumePoint) and the unread
 * activity of whoever this session is for. Keyed by the session, not the
 * user, so it need not wait for the user lookup: the cursor is read before
 * any page data (docs/product-rules.md#live-pages).
 */
export async function headerReadings(sessionHash: string | null) {
  const hash = sessionHash ?? "";
  if (engine === "sqlite") {
    // In-process: two prepared statements cost less than one statement
    // built for each page (measured: docs/decisions/archive/1056-server-cpu-per-request.md).
    const { point } = await liveResumePoint();
    const unread = (await unreadBySession().execute({ hash }))[0]?.n ?? 0;
    return { liveCursor: point, unread };
  }
  // PostgreSQL: one round trip, not two (each costs this server about half
  // a millisecond of CPU). Spelled as SQL: building it with the query
  // builder on every page would cost more than the trip it saves.
  const { point, alongside } = await liveResumePoint(
    sql`select count(*) from ${activityEvents}
      inner join ${sessions} on ${sessions.userId} = ${activityEvents.userId}
      where ${sessions.idHash} = ${hash} and not ${activityEvents.read}`,
  );
  return { liveCursor: point, unread: alongside };
}

export async function listActivity(userId: number, limit = 50) {
  return await db
    .select()
    .from(activityEvents)
    .where(eq(activityEvents.userId, userId))
    .orderBy(desc(activityEvents.id))
    .limit(limit);
}

export async function markAllActivityRead(userId: number) {
  return await immediate(
    async (tx) => {
      const changes = changedRows(
        await tx
          .update(activityEvents)
          .set({ read: true })
          .where(
            and(
              eq(activityEvents.userId, userId),
              eq(activityEvents.read, false),
            ),
          ),
      );
      // The person's other tabs drop their unread count too.
      if (changes > 0) await announceActivity(tx, userId);
      return changes;
    },
    { bookkeeping: true },
  );
}

export function toActivityJson(event: typeof activityEvents.$inferSelect) {
  return {
    id: event.id,
    type: event.type,
    message: event.message,
    betId: event.betId,
    actorId: event.actorId,
    createdAt: event.createdAt.toISOString(),
    read: event.read,
  };
}

/**
 * Where an event leads: the screen that acts on it (approve, pay, rule),
 * else its bet, or the friends screen for friend events (docs/product-rules.md#notifications).
 */
export function activityHref(
  event: Pick<typeof activityEvents.$inferSelect, "type" | "betId">,
): string | null {
  if (event.betId !== null) {
    switch (event.type) {
      case "settlement_proposed":
      case "settlement_reminder":
        return href("/settlements/:id/approve", { id: String(event.betId) });
      case "payment_due":
      case "payment_overdue":
      case "payment_nudge":
        return href("/payment/:id", { id: String(event.betId) });
      case "referee_requested":
        return href("/bet/:id/rule", { id: String(event.betId) });
      default:
        return href("/bet/:id", { id: String(event.betId) });
    }
  }
  if (event.type === "friend_request_received")
    return `${href("/friends")}?tab=requests`;
  if (event.type === "friend_request_accepted") return href("/friends");
  return null;
}
