// Talk on a bet (docs/product-rules.md#messages): the two people on a bet
// and its referee write to each other where the decision is made. Only they
// read or write the messages, whatever the bet's visibility; anyone else who
// may see the bet gets 403, anyone who may not gets the bet's 404. Writing
// tells the others at once (live pages, activity, then mail or push through
// the outbox), in the same transaction as the message.
import { and, asc, count, eq, gt, isNull } from "drizzle-orm";
import { changedRows } from "~/db/dialect.server";
import { db, immediate } from "~/db/transactions.server";
import { betMessagePhotos, betMessages, users } from "~/db/schema";
import {
  MESSAGE_MAX_CHARS,
  MESSAGES_PER_BET,
  MESSAGES_PER_MINUTE,
} from "~/domain/messages";
import { displayNameSql } from "../accounts/display-name.server";
import { assertAccountOpen } from "../accounts/closed-account.server";
import { announceBet } from "../notifications/live-events.server";
import { recordActivity } from "../social/activity.server";
import { setting } from "~/utils/env.server";
import { conflict, forbidden, invalid, notFound } from "~/utils/errors";
import { TooManyRequestsError } from "~/utils/rate-limit.server";
import { requireTalker } from "./talkers.server";
import {
  checkPhotos,
  photoBytes,
  photosOfBet,
  processPhoto,
  type PhotoRef,
  type ProcessedPhoto,
} from "./photos.server";
import { codePoints, refusedTextMessage } from "~/utils/validation";

export const MESSAGE_NOT_FOUND = "This message could not be found.";
export const PHOTO_NOT_FOUND = "This photo could not be found.";
export const EMPTY_MESSAGE = "Write a message first.";
export const LONG_MESSAGE = `A message is at most ${MESSAGE_MAX_CHARS.toLocaleString("en-US")} characters.`;
export const NOT_YOUR_MESSAGE = "You can delete only your own messages.";
export const DELETE_WINDOW_OVER =
  "A message can be deleted only within 10 minutes of sending it.";
export const BET_FULL_OF_MESSAGES = `This bet has reached its ${MESSAGES_PER_BET} messages.`;
export const TOO_MANY_MESSAGES =
  "You are sending messages too fast. Please wait a minute and try again.";

/** docs/product-rules.md#messages: an author deletes their own within this (10 minutes). */
export const messageDeleteWindowMs = () =>
  setting("MESSAGE_DELETE_WINDOW_S") * 1000;

const MINUTE_MS = 60_000;

export type MessageView = {
  id: number;
  betId: number;
  authorId: number;
  authorName: string;
  /** Null once deleted: the page says 'Message deleted' in its place. */
  body: string | null;
  createdAt: Date;
  deleted: boolean;
  /** Whether the viewer may still delete it (their own, inside the window). */
  canDelete: boolean;
  /** Its photos, in order (none once deleted). */
  photos: PhotoRef[];
};

/** The body as sent, checked: 1 to 1,000 characters, line breaks allowed, no other control characters. */
export function messageBodyOf(raw: unknown): string {
  if (raw !== undefined && raw !== null && typeof raw !== "string")
    throw invalid(EMPTY_MESSAGE, { body: [EMPTY_MESSAGE] });
  const body =
    typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").trim() : "";
  if (body === "") throw invalid(EMPTY_MESSAGE, { body: [EMPTY_MESSAGE] });
  const refused = refusedTextMessage(body);
  if (refused) throw invalid(refused, { body: [refused] });
  if (codePoints(body) > MESSAGE_MAX_CHARS)
    throw invalid(LONG_MESSAGE, { body: [LONG_MESSAGE] });
  return body;
}

function viewOf(
  row: {
    id: number;
    betId: number;
    authorId: number;
    authorName: string;
    body: string;
    createdAt: Date;
    deletedAt: Date | null;
  },
  viewerId: number,
  now: number,
  photos: PhotoRef[] = [],
): MessageView {
  const deleted = row.deletedAt !== null;
  return {
    id: row.id,
    betId: row.betId,
    authorId: row.authorId,
    authorName: row.authorName,
    body: deleted ? null : row.body,
    createdAt: row.createdAt,
    deleted,
    canDelete:
      !deleted &&
      row.authorId === viewerId &&
      now - row.createdAt.getTime() < messageDeleteWindowMs(),
    photos: deleted ? [] : photos,
  };
}

async function messagesOf(betId: number, viewerId: number, now: number) {
  const rows = await db
    .select({
      id: betMessages.id,
      betId: betMessages.betId,
      authorId: betMessages.authorId,
      authorName: displayNameSql(),
      body: betMessages.body,
      createdAt: betMessages.createdAt,
      deletedAt: betMessages.deletedAt,
    })
    .from(betMessages)
    .innerJoin(users, eq(users.id, betMessages.authorId))
    .where(eq(betMessages.betId, betId))
    .orderBy(asc(betMessages.id));
  const photos = await photosOfBet(betId);
  return rows.map((row) =>
    viewOf(row, viewerId, now, photos.get(row.id) ?? []),
  );
}

/** GET /api/bets/{id}/messages: oldest first, to the bet's people only. */
export async function listMessages({
  betId,
  userId,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  now?: number;
}): Promise<MessageView[]> {
  await requireTalker(db, betId, userId);
  return messagesOf(betId, userId, now);
}

/**
 * A bet page's messages: null when the viewer is not one of the bet's
 * people (the page then shows no conversation at all).
 */
export async function messagesForPage(
  bet: { id: number; refereeId: number | null; participants: { id: number }[] },
  userId: number,
  now = Date.now(),
): Promise<MessageView[] | null> {
  const mayTalk =
    bet.refereeId === userId || bet.participants.some((p) => p.id === userId);
  return mayTalk ? messagesOf(bet.id, userId, now) : null;
}

/**
 * Writes a message on a bet: at most 500 a bet and 20 a person a minute,
 * counted inside the transaction that writes, so simultaneous sends cannot
 * all pass a count none of them has added to yet. The others on the bet
 * hear it at once.
 */
export async function postMessage({
  betId,
  userId,
  body: raw,
  photos: uploads = [],
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  body: unknown;
  /** Uploaded photos (docs/product-rules.md#messages), checked by their bytes. */
  photos?: Uint8Array[];
  now?: number;
}): Promise<MessageView> {
  const body = messageBodyOf(raw);
  checkPhotos(uploads);
  if (uploads.length > 0) {
    // Who may write is asked before any photo is decoded, and again below.
    await requireTalker(db, betId, userId);
  }
  const processed: ProcessedPhoto[] = [];
  for (const bytes of uploads) processed.push(await processPhoto(bytes));
  return immediate(async (tx) => {
    await assertAccountOpen(tx, userId);
    const { bet, people } = await requireTalker(tx, betId, userId);
    const [onBet] = await tx
      .select({ n: count() })
      .from(betMessages)
      .where(eq(betMessages.betId, betId));
    if ((onBet?.n ?? 0) >= MESSAGES_PER_BET)
      throw conflict(BET_FULL_OF_MESSAGES, undefined, {
        code: "too_many_messages",
      });
    const recent = await tx
      .select({ createdAt: betMessages.createdAt })
      .from(betMessages)
      .where(
        and(
          eq(betMessages.authorId, userId),
          gt(betMessages.createdAt, new Date(now - MINUTE_MS)),
        ),
      )
      .orderBy(asc(betMessages.createdAt));
    if (recent.length >= MESSAGES_PER_MINUTE) {
      const oldest = recent[recent.length - MESSAGES_PER_MINUTE]!;
      const waitMs = oldest.createdAt.getTime() + MINUTE_MS - now;
      throw new TooManyRequestsError(
        TOO_MANY_MESSAGES,
        Math.max(1, Math.ceil(waitMs / 1000)),
      );
    }
    const [row] = await tx
      .insert(betMessages)
      .values({ betId, authorId: userId, body, createdAt: new Date(now) })
      .returning();
    const photos: PhotoRef[] = [];
    for (const [position, photo] of processed.entries()) {
      const [stored] = await tx
        .insert(betMessagePhotos)
        .values({
          messageId: row!.id,
          betId,
          position,
          contentType: "image/webp",
          width: photo.width,
          height: photo.height,
          data: photo.data,
          thumb: photo.thumb,
        })
        .returning({ id: betMessagePhotos.id });
      photos.push({
        id: stored!.id,
        messageId: row!.id,
        width: photo.width,
        height: photo.height,
      });
    }
    const author = (
      await tx
        .select({ name: displayNameSql() })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1)
    )[0]!.name;
    await announceBet(tx, betId);
    for (const other of people) {
      if (other === userId) continue;
      await recordActivity(tx, {
        userId: other,
        actorId: userId,
        type: "bet_message",
        text: {
          key: "notify.betMessage",
          values: { author, title: bet.title },
        },
        betId,
      });
    }
    return viewOf({ ...row!, authorName: author }, userId, now, photos);
  });
}

/**
 * The author deletes their own message within the window: 'Message
 * deleted' stays in its place. Deleting one already deleted changes nothing.
 */
export async function deleteMessage({
  betId,
  messageId,
  userId,
  now = Date.now(),
}: {
  betId: number;
  messageId: number;
  userId: number;
  now?: number;
}) {
  await immediate(async (tx) => {
    await requireTalker(tx, betId, userId);
    const message = (
      await tx
        .select()
        .from(betMessages)
        .where(and(eq(betMessages.id, messageId), eq(betMessages.betId, betId)))
        .limit(1)
    )[0];
    if (!message) throw notFound(MESSAGE_NOT_FOUND);
    if (message.authorId !== userId) throw forbidden(NOT_YOUR_MESSAGE);
    if (message.deletedAt !== null) return;
    if (now - message.createdAt.getTime() >= messageDeleteWindowMs())
      throw conflict(DELETE_WINDOW_OVER);
    const changed = await tx
      .update(betMessages)
      .set({ body: "", deletedAt: new Date(now) })
      .where(and(eq(betMessages.id, messageId), isNull(betMessages.deletedAt)));
    if (changedRows(changed) !== 1) return;
    await tx
      .delete(betMessagePhotos)
      .where(eq(betMessagePhotos.messageId, messageId));
    await announceBet(tx, betId);
  });
}

/**
 * A photo's bytes for the bet's people; 404 to anyone else, whoever they
 * are (a photo's address tells nothing to someone not on the bet).
 */
export async function photoForViewer({
  betId,
  messageId,
  photoId,
  userId,
  size,
}: {
  betId: number;
  messageId: number;
  photoId: number;
  userId: number;
  size: "full" | "thumb";
}) {
  try {
    await requireTalker(db, betId, userId);
  } catch {
    throw notFound(PHOTO_NOT_FOUND);
  }
  const photo = await photoBytes(betId, messageId, photoId, size);
  if (!photo) throw notFound(PHOTO_NOT_FOUND);
  return photo;
}
