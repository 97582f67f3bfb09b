import { href } from "react-router";
// The kinds of notification a person can hear about outside the app
// (docs/product-rules.md#notifications) and the channels they travel on. Safe for the browser bundle:
// the preferences page lists them.

export const NOTIFICATION_CHANNELS = ["email", "push"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_KINDS = [
  "bet_joined",
  "settlement_proposed",
  "settlement_reminder",
  "settlement_rejected",
  "bet_settled",
  "referee_requested",
  "referee_ruled",
  "payment_due",
  "payment_overdue",
  "payment_nudge",
  "payment_received",
  "friend_request_received",
  "friend_request_accepted",
  "bet_message",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How the preferences page names each kind (who hears it, in brackets of docs/product-rules.md#notifications). */
export const KIND_LABELS: Record<NotificationKind, string> = {
  bet_joined: "Someone joins your bet",
  settlement_proposed: "A result waits for your answer",
  settlement_reminder: "Reminders before a result is approved for you",
  settlement_rejected: "Your proposed result is rejected",
  bet_settled: "A bet is settled",
  referee_requested: "You are asked to referee",
  referee_ruled: "The referee rules",
  payment_due: "A payment you owe is due",
  payment_overdue: "A payment you owe is overdue",
  payment_nudge: "The winner nudges you to pay",
  payment_received: "You are paid",
  friend_request_received: "A friend request arrives",
  friend_request_accepted: "A friend request is accepted",
  bet_message: "Someone writes on your bet",
};

export const isNotificationKind = (v: unknown): v is NotificationKind =>
  typeof v === "string" &&
  (NOTIFICATION_KINDS as readonly string[]).includes(v);

export const isNotificationChannel = (v: unknown): v is NotificationChannel =>
  v === "email" || v === "push";

/**
 * The kind an activity event is heard as outside the app, or null for an
 * event that stays in the app. An approval is heard as the settlement it is.
 */
export function notificationKindOf(
  activityType: string,
): NotificationKind | null {
  if (activityType === "settlement_approved") return "bet_settled";
  return isNotificationKind(activityType) ? activityType : null;
}

/**
 * The screen that acts on a notification (docs/product-rules.md#notifications: approve, pay, rule).
 * `owes` is whether the recipient is the loser of a settled bet.
 */
export function notificationPath(
  kind: NotificationKind,
  betId: number | null,
  owes: boolean,
): string {
  if (kind === "friend_request_received")
    return `${href("/friends")}?tab=requests`;
  if (kind === "friend_request_accepted") return href("/friends");
  if (betId === null) return href("/notifications");
  switch (kind) {
    case "settlement_proposed":
    case "settlement_reminder":
      return href("/settlements/:id/approve", { id: String(betId) });
    case "referee_requested":
      return href("/bet/:id/rule", { id: String(betId) });
    case "payment_due":
    case "payment_overdue":
    case "payment_nudge":
      return href("/payment/:id", { id: String(betId) });
    case "bet_settled":
    case "referee_ruled":
      return owes
        ? href("/payment/:id", { id: String(betId) })
        : href("/bet/:id", { id: String(betId) });
    default:
      return href("/bet/:id", { id: String(betId) });
  }
}

// A short headline per kind, the push title and the mail's subject, is in
// the catalogs (app/locales/*/notify.json), in the recipient's language.
