// Who hears what, where (docs/product-rules.md#notifications): every kind on every channel is on until
// the person switches it off, on /profile/notifications, through the API, or
// with one click on a mail's unsubscribe link (docs/product-rules.md#notifications), whose signed token
// is its only authority (it works without signing in).
import crypto from "node:crypto";
import { safeEqual } from "~/utils/safe-equal.server";
import { and, eq } from "drizzle-orm";
import { db, immediate } from "~/db/transactions.server";
import { notificationOptOuts, users } from "~/db/schema";
import { invalid } from "~/utils/errors";
import { sessionSecret } from "~/utils/env-start.server";
import {
  isNotificationChannel,
  isNotificationKind,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
} from "./notification-kinds";

export type NotificationPreferences = Record<
  NotificationChannel,
  Record<NotificationKind, boolean>
>;

export async function getNotificationPreferences(
  userId: number,
): Promise<NotificationPreferences> {
  const off = new Set(
    (
      await db
        .select()
        .from(notificationOptOuts)
        .where(eq(notificationOptOuts.userId, userId))
    ).map((r) => `${r.channel}:${r.kind}`),
  );
  const channel = (c: NotificationChannel) =>
    Object.fromEntries(
      NOTIFICATION_KINDS.map((k) => [k, !off.has(`${c}:${k}`)]),
    ) as Record<NotificationKind, boolean>;
  return { email: channel("email"), push: channel("push") };
}

export async function wantsNotification(
  userId: number,
  channel: NotificationChannel,
  kind: NotificationKind,
): Promise<boolean> {
  return !(
    await db
      .select({ kind: notificationOptOuts.kind })
      .from(notificationOptOuts)
      .where(
        and(
          eq(notificationOptOuts.userId, userId),
          eq(notificationOptOuts.channel, channel),
          eq(notificationOptOuts.kind, kind),
        ),
      )
      .limit(1)
  )[0];
}

export const UNKNOWN_PREFERENCE = "Unknown notification kind or channel.";

/**
 * Applies `{email: {kind: bool}, push: {kind: bool}}`, any part of it.
 * 400 for an unknown channel or kind, or a value that is not true/false.
 */
export async function updateNotificationPreferences(
  userId: number,
  input: unknown,
): Promise<NotificationPreferences> {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw invalid(UNKNOWN_PREFERENCE);
  const changes: {
    channel: NotificationChannel;
    kind: NotificationKind;
    on: boolean;
  }[] = [];
  const fieldErrors: Record<string, string[]> = {};
  for (const [channel, kinds] of Object.entries(input)) {
    if (
      !isNotificationChannel(channel) ||
      typeof kinds !== "object" ||
      kinds === null ||
      Array.isArray(kinds)
    ) {
      fieldErrors[channel] = [UNKNOWN_PREFERENCE];
      continue;
    }
    for (const [kind, on] of Object.entries(kinds)) {
      if (!isNotificationKind(kind) || typeof on !== "boolean")
        fieldErrors[`${channel}.${kind}`] = [
          isNotificationKind(kind)
            ? "Must be true or false."
            : UNKNOWN_PREFERENCE,
        ];
      else changes.push({ channel, kind, on });
    }
  }
  if (Object.keys(fieldErrors).length)
    throw invalid(UNKNOWN_PREFERENCE, fieldErrors);
  await immediate(async (tx) => {
    for (const { channel, kind, on } of changes) {
      if (on)
        await tx
          .delete(notificationOptOuts)
          .where(
            and(
              eq(notificationOptOuts.userId, userId),
              eq(notificationOptOuts.channel, channel),
              eq(notificationOptOuts.kind, kind),
            ),
          );
      else
        await tx
          .insert(notificationOptOuts)
          .values({ userId, channel, kind })
          .onConflictDoNothing();
    }
  });
  return await getNotificationPreferences(userId);
}

/** The whole grid from a no-JS form: a checked box is on, a missing one off. */
export function preferencesFromForm(form: FormData) {
  return Object.fromEntries(
    NOTIFICATION_CHANNELS.map((c) => [
      c,
      Object.fromEntries(
        NOTIFICATION_KINDS.map((k) => [k, form.get(`${c}.${k}`) === "on"]),
      ),
    ]),
  );
}

// --- One-click unsubscribe (RFC 8058) -----------------------------------------

const sign = (payload: string) =>
  crypto
    .createHmac("sha256", sessionSecret())
    .update(`unsubscribe:${payload}`)
    .digest("base64url");

export function unsubscribeToken(userId: number, kind: NotificationKind) {
  const payload = `${userId}.${kind}`;
  return `${payload}.${sign(payload)}`;
}

export const BAD_UNSUBSCRIBE_TOKEN = "This unsubscribe link is not valid.";

/** The token's owner and kind. 400 for a token that is not ours. */
export function verifyUnsubscribeToken(token: unknown): {
  userId: number;
  kind: NotificationKind;
} {
  const parts = typeof token === "string" ? token.split(".") : [];
  const [id, kind, signature] = parts;
  const userId = Number(id);
  const expected = parts.length === 3 ? sign(`${id}.${kind}`) : "";
  if (
    parts.length !== 3 ||
    !Number.isSafeInteger(userId) ||
    !isNotificationKind(kind) ||
    !safeEqual(signature!, expected)
  )
    throw invalid(BAD_UNSUBSCRIBE_TOKEN);
  return { userId, kind };
}

/** Switches one kind of mail off for the token's owner. 400 for a bad token. */
export async function unsubscribeByToken(token: unknown) {
  const target = verifyUnsubscribeToken(token);
  // An account deleted since has nothing left to switch off.
  const exists = (
    await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, target.userId))
      .limit(1)
  )[0];
  if (exists)
    await immediate(
      (tx) =>
        tx
          .insert(notificationOptOuts)
          .values({
            userId: target.userId,
            channel: "email",
            kind: target.kind,
          })
          .onConflictDoNothing(),
      { bookkeeping: true },
    );
  return target;
}
