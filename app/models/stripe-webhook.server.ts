// POST /api/stripe/webhook: the signature is checked against the raw body,
// each event id counts once (processed_webhook_events), and only a
// succeeded payment changes anything: a late or repeated event, or one that
// arrives out of order (a failure after the success), leaves the ledger as it is.
import type Stripe from "stripe";
import { intentFromStripe } from "~/payments/stripe.server";
import { isDomainError } from "~/utils/errors";
import { completePayment, markEventProcessed } from "./payment.server";

export async function handleStripeWebhook(
  request: Request,
  { stripe, webhookSecret }: { stripe: Stripe; webhookSecret: string },
): Promise<Response> {
  const signature = request.headers.get("Stripe-Signature");
  const payload = await request.text();
  if (!signature || payload.length > 512 * 1024)
    return Response.json({ error: "Invalid signature" }, { status: 400 });
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, signature, webhookSecret);
  } catch {
    return Response.json({ error: "Invalid signature" }, { status: 400 });
  }
  const meta = { id: event.id, type: event.type };

  let intent: ReturnType<typeof intentFromStripe> | null = null;
  if (event.type === "payment_intent.succeeded") {
    intent = intentFromStripe(event.data.object);
  } else if (event.type === "checkout.session.completed") {
    const session = event.data.object;
    const piId =
      typeof session.payment_intent === "string"
        ? session.payment_intent
        : session.payment_intent?.id;
    if (session.payment_status === "paid" && piId) {
      intent = {
        ...intentFromStripe({
          id: piId,
          amount: session.amount_total ?? 0,
          status: "succeeded",
          metadata: session.metadata,
        }),
      };
    }
  }

  if (
    !intent ||
    intent.status !== "succeeded" ||
    !intent.betId ||
    !intent.payerId
  ) {
    const fresh = markEventProcessed(meta);
    return Response.json({ received: true, duplicate: !fresh });
  }
  try {
    const { recorded } = completePayment({
      betId: intent.betId,
      payerId: intent.payerId,
      intentId: intent.id,
      amountCents: intent.amountCents,
      provider: "stripe",
      event: meta,
    });
    return Response.json({ received: true, recorded });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    // A payment we cannot apply (already paid by another intent, wrong
    // amount): acknowledge it so Stripe stops retrying; it is logged for a person.
    console.warn(`stripe webhook ${event.id}: ${error.message}`);
    markEventProcessed(meta);
    return Response.json({ received: true, recorded: false });
  }
}
