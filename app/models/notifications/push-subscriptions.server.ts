// A person's browsers that asked for Web Push (docs/product-rules.md#notifications). An endpoint must
// be on the push-service allow-list; one that the service says has ended
// (404/410) is deleted the first time it says so.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { db, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { pushSubscriptions } from "~/db/schema";
import {
  isAllowedPushEndpoint,
  sendPush,
  vapidKeys,
  type PushPayload,
} from "~/messaging/push.server";
import { invalid, notFound } from "~/utils/errors";
import { fieldErrorsOf } from "~/utils/validation";

export const ENDPOINT_NOT_ALLOWED =
  "This push service is not one Fairshake sends to.";
const BAD_KEYS = "The subscription's keys are not valid.";

// p256dh: an uncompressed P-256 point (65 bytes); auth: 16 bytes; base64url.
const base64url = (bytes: number) =>
  z
    .string({ error: BAD_KEYS })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, BAD_KEYS)
    .refine((v) => Buffer.from(v, "base64url").length === bytes, BAD_KEYS);

const SubscriptionSchema = z.object({
  endpoint: z
    .string({ error: ENDPOINT_NOT_ALLOWED })
    .max(2048, ENDPOINT_NOT_ALLOWED)
    .refine(isAllowedPushEndpoint, ENDPOINT_NOT_ALLOWED),
  keys: z.object(
    { p256dh: base64url(65), auth: base64url(16) },
    { error: BAD_KEYS },
  ),
});

export function pushPublicKey(): string | null {
  return vapidKeys()?.publicKey ?? null;
}

/** Saves a subscription. `created`: false when this endpoint was known (it moves to this user). */
export async function savePushSubscription(
  userId: number,
  input: unknown,
): Promise<{ created: boolean }> {
  const parsed = SubscriptionSchema.safeParse(input);
  if (!parsed.success)
    throw invalid(
      parsed.error.issues[0]?.message ?? BAD_KEYS,
      fieldErrorsOf(parsed.error),
    );
  const { endpoint, keys } = parsed.data;
  const existing = (
    await db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, endpoint))
      .limit(1)
  )[0];
  await immediate(
    (tx) =>
      tx
        .insert(pushSubscriptions)
        .values({ userId, endpoint, p256dh: keys.p256dh, auth: keys.auth })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { userId, p256dh: keys.p256dh, auth: keys.auth },
        }),
    { bookkeeping: true },
  );
  return { created: !existing };
}

export async function deletePushSubscription(
  userId: number,
  endpoint: unknown,
) {
  const removed =
    typeof endpoint === "string"
      ? changedRows(
          await immediate(
            (tx) =>
              tx
                .delete(pushSubscriptions)
                .where(
                  and(
                    eq(pushSubscriptions.userId, userId),
                    eq(pushSubscriptions.endpoint, endpoint),
                  ),
                ),
            { bookkeeping: true },
          ),
        )
      : 0;
  if (removed === 0) throw notFound("No such subscription.");
}

/**
 * Sends to every browser of the user. 'none': no subscription; 'off': push
 * is not configured. Throws when every send failed (the outbox retries).
 */
export async function pushToUser(
  userId: number,
  payload: PushPayload,
): Promise<"sent" | "none" | "off"> {
  if (!vapidKeys()) return "off";
  const targets = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  if (targets.length === 0) return "none";
  const errors: unknown[] = [];
  for (const t of targets) {
    try {
      const outcome = await sendPush(
        { endpoint: t.endpoint, keys: { p256dh: t.p256dh, auth: t.auth } },
        payload,
      );
      if (outcome === "gone")
        await immediate(
          (tx) =>
            tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, t.id)),
          { bookkeeping: true },
        );
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === targets.length) throw errors[0];
  return "sent";
}
