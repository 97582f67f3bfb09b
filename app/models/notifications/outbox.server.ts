// The transactional outbox (docs/product-rules.md#notifications). An activity event that people hear
// about outside the app gets one delivery row per channel, written in the
// same transaction as the event. A worker (app/models/cross-domain/background-work.server.ts)
// leases one due row at a time (the claim of app/models/jobs/claims.server.ts,
// committed before the send), sends it outside any transaction, and records
// the outcome: sent, skipped (switched off, unverified, nowhere to send), or
// a retry after the claims' backoff. A row cut off mid-send (the process died
// while talking to the mail server) is not sent again: at most once per channel.
import { and, eq, gte, lte, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db, immediate, outsideTransaction } from "~/db/transactions.server";
import { activityEvents, demoMails, notificationDeliveries } from "~/db/schema";
import { hasSmtp, sendMail, type Mail } from "~/messaging/mail.server";
import { renderMail } from "~/messaging/templates.server";
import { messagesIn } from "~/messaging/activity-text.server";
import { messageFor, type Message } from "./notification-message.server";
import { isDemoMode } from "~/utils/env.server";
import { outboxRetryBaseMs, publicOrigin } from "~/utils/env-settings.server";
import { countOutboxFailure, setOutboxDepth } from "~/utils/metrics.server";
import { afterFailure, lease, type WorkQueue } from "../jobs/claims.server";
import {
  NOTIFICATION_CHANNELS,
  notificationKindOf,
  type NotificationChannel,
} from "./notification-kinds";
import {
  unsubscribeToken,
  wantsNotification,
} from "./notification-preferences.server";
import { pushToUser } from "./push-subscriptions.server";

/** The first retry waits this long (then the claims' backoff). */
const RETRY_BASE_MS = outboxRetryBaseMs();
/** Longer than any one send may take (the transports time out sooner). */
const CLAIM_MS = 2 * 60_000;

/** Called by recordActivity in the event's own transaction. */
export async function enqueueNotifications(
  tx: Tx | typeof db,
  event: { id: number; type: string },
  now = Date.now(),
) {
  if (!notificationKindOf(event.type)) return;
  await tx.insert(notificationDeliveries).values(
    NOTIFICATION_CHANNELS.map((channel) => ({
      eventId: event.id,
      channel,
      nextAttemptAt: now,
    })),
  );
  wakeWorker();
}

// --- The worker ---------------------------------------------------------------

let wake: (() => void) | null = null;
/** The worker registers how to be woken; enqueueing then needs no poll to wait for. */
export function onNotificationsQueued(fn: () => void) {
  wake = fn;
}
function wakeWorker() {
  // After the transaction that wrote the event has committed.
  // Run outside the transaction that queued the work: its delivery opens
  // transactions of its own, which must not join this one.
  if (wake) outsideTransaction(() => setTimeout(wake!, 0).unref?.());
}

type Claimed = typeof notificationDeliveries.$inferSelect;

/**
 * The outbox as the claim sees it: a pending row is free; a claim marks it
 * 'sending' until CLAIM_MS from now. A row still 'sending' after that is
 * never claimed again (`abandonInterrupted` gives it up).
 */
const deliveries: WorkQueue<typeof notificationDeliveries> = {
  table: notificationDeliveries,
  dueAt: notificationDeliveries.nextAttemptAt,
  open: () => eq(notificationDeliveries.status, "pending"),
  hold: (now) => ({ status: "sending", claimedUntil: now + CLAIM_MS }),
};

type Outcome =
  | { status: "sent" | "skipped"; note?: string }
  | { status: "retry"; error: string };

async function finish(row: Claimed, outcome: Outcome, now: number) {
  if (outcome.status === "retry") {
    const { retryAt, giveUp } = afterFailure(row.attempts, RETRY_BASE_MS, now);
    await immediate(
      (tx) =>
        tx
          .update(notificationDeliveries)
          .set({
            status: giveUp ? "failed" : "pending",
            nextAttemptAt: retryAt,
            claimedUntil: null,
            lastError: outcome.error.slice(0, 500),
            doneAt: giveUp ? now : null,
          })
          .where(eq(notificationDeliveries.id, row.id)),
      { bookkeeping: true },
    );
    return;
  }
  await immediate(
    (tx) =>
      tx
        .update(notificationDeliveries)
        .set({
          status: outcome.status,
          claimedUntil: null,
          lastError: outcome.note ?? null,
          doneAt: now,
        })
        .where(eq(notificationDeliveries.id, row.id)),
    { bookkeeping: true },
  );
}

/** Rows a dead process left mid-send: given up, never sent twice. */
async function abandonInterrupted(now: number) {
  await immediate(
    (tx) =>
      tx
        .update(notificationDeliveries)
        .set({
          status: "failed",
          claimedUntil: null,
          lastError: "interrupted while sending; not sent again (at most once)",
          doneAt: now,
        })
        .where(
          and(
            eq(notificationDeliveries.status, "sending"),
            lte(notificationDeliveries.claimedUntil, now),
          ),
        ),
    { bookkeeping: true },
  );
}

/** Delivers what is due, one row at a time, until none is. Returns how many rows were handled. */
export async function deliverDueNotifications(
  clock: () => number = Date.now,
  limit = 100,
): Promise<number> {
  await abandonInterrupted(clock());
  let handled = 0;
  for (; handled < limit; handled += 1) {
    const row = await lease(deliveries, clock());
    if (!row) break;
    let outcome: Outcome;
    try {
      outcome = await deliver(row);
    } catch (error) {
      outcome = { status: "retry", error: String(error) };
    }
    if (outcome.status === "retry") countOutboxFailure(row.channel);
    await finish(row, outcome, clock());
  }
  setOutboxDepth(await outboxDepth());
  return handled;
}

/** How many deliveries wait (for metrics and tests). */
export async function outboxDepth(): Promise<number> {
  return (
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(notificationDeliveries)
        .where(eq(notificationDeliveries.status, "pending"))
        .limit(1)
    )[0]?.n ?? 0
  );
}

// --- One delivery -----------------------------------------------------------------

async function deliver(row: Claimed): Promise<Outcome> {
  const message = await messageFor(row.eventId);
  if (!message) return { status: "skipped", note: "nothing to say" };
  const channel = row.channel as NotificationChannel;
  if (!(await wantsNotification(message.user.id, channel, message.kind)))
    return { status: "skipped", note: "switched off" };
  if (
    channel === "email" &&
    message.kind === "bet_message" &&
    (await mailedAboutBetMessagesSince(
      message,
      Date.now() - MESSAGE_MAIL_GAP_MS,
    ))
  )
    return { status: "skipped", note: "one mail per bet per 10 minutes" };
  return channel === "email" ? deliverMail(message) : deliverPush(message);
}

/**
 * docs/product-rules.md#messages: a conversation sends a person at most one
 * mail per bet per 10 minutes; the rest wait in the app (activity, push).
 */
const MESSAGE_MAIL_GAP_MS = 10 * 60_000;

async function mailedAboutBetMessagesSince(message: Message, since: number) {
  if (message.betId === null) return false;
  const sent = await db
    .select({ id: notificationDeliveries.id })
    .from(notificationDeliveries)
    .innerJoin(
      activityEvents,
      eq(activityEvents.id, notificationDeliveries.eventId),
    )
    .where(
      and(
        eq(activityEvents.userId, message.user.id),
        eq(activityEvents.betId, message.betId),
        eq(activityEvents.type, "bet_message"),
        eq(notificationDeliveries.channel, "email"),
        eq(notificationDeliveries.status, "sent"),
        gte(notificationDeliveries.doneAt, since),
      ),
    )
    .limit(1);
  return sent.length > 0;
}

async function deliverMail(message: Message): Promise<Outcome> {
  if (!message.user.emailVerified)
    return { status: "skipped", note: "address not verified" };
  const origin = publicOrigin();
  const t = messagesIn(message.language);
  const mail = renderMail({
    to: message.user.email,
    language: message.language,
    subject: message.title,
    paragraphs: [
      t("email.greeting", { name: message.user.username }),
      /[.!?]$/.test(message.body) ? message.body : `${message.body}.`,
    ],
    action: { label: t("email.open"), url: `${origin}${message.path}` },
    footer: t("email.why", { title: message.title }),
    unsubscribeUrl: `${origin}/api/unsubscribe?token=${encodeURIComponent(
      unsubscribeToken(message.user.id, message.kind),
    )}`,
  });
  return sendAccountMail(mail, message.user.id, message.kind);
}

async function deliverPush(message: Message): Promise<Outcome> {
  const result = await pushToUser(message.user.id, {
    title: message.title,
    body: message.body,
    url: message.path,
  });
  if (result === "none") return { status: "skipped", note: "no subscription" };
  if (result === "off")
    return { status: "skipped", note: "push not configured" };
  return { status: "sent" };
}

/**
 * Sends a mail about account `userId` over SMTP; without SMTP_URL keeps it
 * for /demo/outbox in demo mode, else logs that it was dropped (without its
 * links: they are keys). Also used for account mail (verification, reset),
 * which is not a notification.
 */
export async function sendAccountMail(
  mail: Mail,
  userId: number,
  what: string,
): Promise<Outcome> {
  if (hasSmtp()) {
    await sendMail(mail);
    return { status: "sent" };
  }
  if (isDemoMode) {
    await immediate(
      (tx) =>
        tx.insert(demoMails).values({
          userId,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        }),
      { bookkeeping: true },
    );
    return { status: "sent", note: "demo outbox" };
  }
  console.info(
    `mail to user #${userId} (${what}) not sent: SMTP_URL is not set ("${mail.subject}")`,
  );
  return { status: "skipped", note: "no SMTP_URL" };
}
