// The Stripe provider (docs/product-rules.md#paying): test-mode keys only (env.server refuses
// live keys at start). A PaymentIntent with an idempotency key for the
// Payment Element when JavaScript runs; a Checkout Session redirect when it
// does not; a webhook whose signature is checked and whose events count once.
import type { Currency } from "~/domain/currency";
import type Stripe from "stripe";
import { PAYMENT_ERROR_TITLE, PAYMENT_WENT_WRONG } from "~/domain/payment";
import { DomainError } from "~/utils/errors";
import type {
  PaymentProvider,
  ProviderIntent,
  WebhookReading,
} from "./provider.server";

/** The checkout form posted something that is neither of Stripe's two paths. */
export const CHECKOUT_FORM_REFUSED = PAYMENT_WENT_WRONG;
const WEBHOOK_BODY_LIMIT = 512 * 1024;

// The library loads when a provider first talks to Stripe, not with the
// server: it was about a tenth of a start's CPU, and a demo server or one
// without keys never uses it.
const loadStripe = () => import("stripe").then((module) => module.default);

export async function createStripeClient(secretKey: string) {
  const Stripe = await loadStripe();
  // The fetch client: one code path, and MSW answers it in tests.
  return new Stripe(secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
  });
}

function metaNumber(value: string | undefined): number | null {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export function intentFromStripe(pi: {
  id: string;
  client_secret?: string | null;
  amount: number;
  currency?: string | null;
  status: string;
  metadata?: Record<string, string> | null;
}): ProviderIntent {
  return {
    id: pi.id,
    clientSecret: pi.client_secret ?? null,
    amountCents: pi.amount,
    // Stripe writes currencies in lower case.
    currency: (pi.currency ?? "usd").toUpperCase(),
    status: pi.status,
    betId: metaNumber(pi.metadata?.betId),
    payerId: metaNumber(pi.metadata?.payerId),
  };
}

/**
 * The succeeded payment a verified event reports, or null: a succeeded
 * PaymentIntent (the Payment Element) or a paid Checkout Session (no JS).
 */
export function succeededFromEvent(event: Stripe.Event): ProviderIntent | null {
  if (event.type === "payment_intent.succeeded")
    return intentFromStripe(event.data.object);
  if (event.type === "checkout.session.completed") {
    const session = event.data.object;
    const piId =
      typeof session.payment_intent === "string"
        ? session.payment_intent
        : session.payment_intent?.id;
    if (session.payment_status === "paid" && piId)
      return intentFromStripe({
        id: piId,
        amount: session.amount_total ?? 0,
        currency: session.currency,
        status: "succeeded",
        metadata: session.metadata,
      });
  }
  return null;
}

export type StripeProvider = PaymentProvider & {
  /** The client itself, for tests (signing webhook payloads). */
  client(): Promise<Stripe>;
  createCheckoutSession(input: {
    betId: number;
    payerId: number;
    amountCents: number;
    currency: Currency;
    title: string;
    origin: string;
  }): Promise<{ url: string }>;
};

export function createStripeProvider(
  secretKey: string,
  {
    publishableKey = null,
    webhookSecret,
  }: { publishableKey?: string | null; webhookSecret?: string } = {},
): StripeProvider {
  let stripe: Promise<Stripe> | undefined;
  const client = () => (stripe ??= createStripeClient(secretKey));
  const provider: StripeProvider = {
    name: "stripe",
    publishableKey,
    client,
    // The bet's currency, its amount in the smallest unit Stripe counts in:
    // cents, or whole yen (JPY has no minor unit), exactly as the bet keeps it.
    async createIntent({
      betId,
      payerId,
      amountCents,
      currency,
      idempotencyKey,
    }) {
      const stripe = await client();
      const pi = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: currency.toLowerCase(),
          automatic_payment_methods: { enabled: true },
          metadata: { betId: String(betId), payerId: String(payerId) },
          description: `Fairshake bet #${betId}`,
        },
        { idempotencyKey },
      );
      return intentFromStripe(pi);
    },
    async retrieveIntent(id) {
      const stripe = await client();
      try {
        return intentFromStripe(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        const { errors } = await loadStripe();
        if (
          error instanceof errors.StripeInvalidRequestError &&
          error.statusCode === 404
        )
          return null;
        throw error;
      }
    },
    async createCheckoutSession({
      betId,
      payerId,
      amountCents,
      currency,
      title,
      origin,
    }) {
      const metadata = { betId: String(betId), payerId: String(payerId) };
      const stripe = await client();
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: currency.toLowerCase(),
                unit_amount: amountCents,
                product_data: { name: `Fairshake: ${title}`.slice(0, 250) },
              },
            },
          ],
          metadata,
          payment_intent_data: { metadata },
          success_url: `${origin}/my-bets`,
          cancel_url: `${origin}/payment/${betId}`,
        },
        { idempotencyKey: `cs-bet-${betId}-user-${payerId}` },
      );
      if (!session.url) throw new Error("Stripe returned no Checkout URL");
      return { url: session.url };
    },
    // With JavaScript the Payment Element confirms in the browser and posts
    // the intent's id to record; without, Stripe's hosted page takes the card.
    async checkout({
      fields,
      betId,
      payerId,
      amountCents,
      currency,
      title,
      origin,
    }) {
      if (fields.get("intent") === "stripe-checkout") {
        const { url } = await provider.createCheckoutSession({
          betId,
          payerId,
          amountCents,
          currency,
          title,
          origin,
        });
        return { kind: "redirect", url };
      }
      const intentId = String(fields.get("paymentIntentId") ?? "");
      if (
        fields.get("intent") !== "stripe-record" ||
        !/^pi_\w{1,200}$/.test(intentId)
      )
        throw new DomainError(
          400,
          CHECKOUT_FORM_REFUSED,
          undefined,
          PAYMENT_ERROR_TITLE,
        );
      return { kind: "record", intentId };
    },
    // The signature is checked against the raw body; no secret, no webhook.
    async readWebhook(request): Promise<WebhookReading> {
      if (!webhookSecret) return { kind: "absent" };
      const signature = request.headers.get("Stripe-Signature");
      const payload = await request.text();
      if (!signature || payload.length > WEBHOOK_BODY_LIMIT)
        return { kind: "forged" };
      const stripe = await client();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          payload,
          signature,
          webhookSecret,
        );
      } catch {
        return { kind: "forged" };
      }
      return {
        kind: "event",
        event: { id: event.id, type: event.type },
        succeeded: succeededFromEvent(event),
      };
    },
  };
  return provider;
}
