// What one outbox delivery says, and to whom (docs/product-rules.md#notifications):
// the event's words written in the recipient's saved language
// (docs/decisions/1155-notifications-written-when-sent.md), its headline,
// and the screen that acts on it.
import { eq } from "drizzle-orm";
import { db } from "~/db/transactions.server";
import { activityEvents, bets, users } from "~/db/schema";
import { resolveLanguage, type Language } from "~/domain/language";
import { messagesIn, writeText } from "~/messaging/activity-text.server";
import {
  notificationKindOf,
  notificationPath,
  type NotificationKind,
} from "./notification-kinds";

export type Message = {
  kind: NotificationKind;
  title: string;
  body: string;
  path: string;
  betId: number | null;
  user: { id: number; email: string; emailVerified: boolean; username: string };
  /** The recipient's saved language, read when the delivery goes out. */
  language: Language;
};

/**
 * The words are written when the delivery goes out, not when it is queued:
 * in the language the recipient has saved by then (one who changes it
 * between hears in the new one), English for accounts older than languages.
 * An event older than languages has only its English words.
 */
export async function messageFor(eventId: number): Promise<Message | null> {
  const row = (
    await db
      .select({
        type: activityEvents.type,
        message: activityEvents.message,
        data: activityEvents.data,
        betId: activityEvents.betId,
        user: {
          id: users.id,
          email: users.email,
          emailVerified: users.emailVerified,
          username: users.username,
        },
        language: users.language,
        winnerId: bets.winnerId,
        betStatus: bets.status,
      })
      .from(activityEvents)
      .innerJoin(users, eq(users.id, activityEvents.userId))
      .leftJoin(bets, eq(bets.id, activityEvents.betId))
      .where(eq(activityEvents.id, eventId))
      .limit(1)
  )[0];
  const kind = row && notificationKindOf(row.type);
  if (!row || !kind) return null;
  const owes =
    row.betStatus === "settled" &&
    row.winnerId !== null &&
    row.winnerId !== row.user.id;
  const language = resolveLanguage({ saved: row.language });
  return {
    kind,
    language,
    title: messagesIn(language)(`notify.title.${kind}`),
    body: row.data ? writeText(row.data, language) : row.message,
    path: notificationPath(kind, row.betId, owes),
    betId: row.betId,
    user: row.user,
  };
}
