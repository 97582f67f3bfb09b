// The Stripe provider (ruling 11): test-mode keys only (env.server refuses
// live keys at start). A PaymentIntent with an idempotency key for the
// Payment Element when JavaScript runs; a Checkout Session redirect when it
// does not; a webhook whose signature is checked and whose events count once.
import Stripe from "stripe";
import type { PaymentProvider, ProviderIntent } from "./provider.server";

export function createStripeClient(secretKey: string) {
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
  status: string;
  metadata?: Record<string, string> | null;
}): ProviderIntent {
  return {
    id: pi.id,
    clientSecret: pi.client_secret ?? null,
    amountCents: pi.amount,
    status: pi.status,
    betId: metaNumber(pi.metadata?.betId),
    payerId: metaNumber(pi.metadata?.payerId),
  };
}

export type StripeProvider = PaymentProvider & {
  readonly stripe: Stripe;
  createCheckoutSession(input: {
    betId: number;
    payerId: number;
    amountCents: number;
    title: string;
    origin: string;
  }): Promise<{ url: string }>;
};

export function createStripeProvider(secretKey: string): StripeProvider {
  const stripe = createStripeClient(secretKey);
  return {
    name: "stripe",
    stripe,
    async createIntent({ betId, payerId, amountCents, idempotencyKey }) {
      const pi = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: "usd",
          automatic_payment_methods: { enabled: true },
          metadata: { betId: String(betId), payerId: String(payerId) },
          description: `Fairshake bet #${betId}`,
        },
        { idempotencyKey },
      );
      return intentFromStripe(pi);
    },
    async retrieveIntent(id) {
      try {
        return intentFromStripe(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
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
      title,
      origin,
    }) {
      const metadata = { betId: String(betId), payerId: String(payerId) };
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
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
  };
}
