// POST /api/stripe/webhook: the provider checks the signature against the
// raw body and reads the event; each event id counts once
// (processed_webhook_events), and only a succeeded payment changes anything:
// a late or repeated event, or one that arrives out of order (a failure
// after the success), leaves the ledger as it is.
import type { PaymentProvider } from "~/payments/provider.server";
import { getPaymentProvider } from "./payment-provider.server";
import { isDomainError, notFound } from "~/utils/errors";
import { changedRows } from "~/db/dialect.server";
import { immediate } from "~/db/transactions.server";
import { processedWebhookEvents } from "~/db/schema";
import { completePayment } from "./payment.server";

export async function handlePaymentWebhook(
  request: Request,
  provider: PaymentProvider | null = getPaymentProvider(),
): Promise<Response> {
  if (!provider) throw notFound("Not found");
  const reading = await provider.readWebhook(request);
  if (reading.kind === "absent") throw notFound("Not found");
  if (reading.kind === "forged")
    return Response.json({ error: "Invalid signature" }, { status: 400 });
  const { event, succeeded: intent } = reading;

  if (
    !intent ||
    intent.status !== "succeeded" ||
    !intent.betId ||
    !intent.payerId
  ) {
    const fresh = await markEventProcessed(event);
    return Response.json({ received: true, duplicate: !fresh });
  }
  try {
    const { recorded } = await completePayment({
      betId: intent.betId,
      payerId: intent.payerId,
      intentId: intent.id,
      amountCents: intent.amountCents,
      currency: intent.currency,
      provider: provider.name,
      event,
    });
    return Response.json({ received: true, recorded });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    // A payment we cannot apply (already paid by another intent, wrong
    // amount): acknowledge it so Stripe stops retrying; it is logged for a person.
    console.warn(`payment webhook ${event.id}: ${error.message}`);
    await markEventProcessed(event);
    return Response.json({ received: true, recorded: false });
  }
}

/** Marks a webhook event handled without acting on it; false if seen before. */
export async function markEventProcessed(event: { id: string; type: string }) {
  return (
    changedRows(
      await immediate(
        (tx) =>
          tx.insert(processedWebhookEvents).values(event).onConflictDoNothing(),
        { bookkeeping: true },
      ),
    ) === 1
  );
}
