// Which payment provider this server uses (docs/product-rules.md#paying): the demo
// provider in DEMO_MODE=1, Stripe when its test keys are set, neither
// otherwise (then payments say they are unavailable: docs/decisions/0201-no-payment-provider.md). The demo provider
// plays the card processor; its record of intents is a table, so the store it
// keeps them in is given here, in the model layer: providers never import the
// database or the models (docs/decisions/0960-layers-as-they-are.md).
import { and, eq } from "drizzle-orm";
import { db, immediate } from "~/db/transactions.server";
import { demoPaymentIntents } from "~/db/schema";
import {
  createDemoProvider,
  type DemoConfirmInput,
  type DemoIntentStore,
} from "~/payments/demo.server";
import type { PaymentProvider } from "~/payments/provider.server";
import { createStripeProvider } from "~/payments/stripe.server";
import { isDemoMode } from "~/utils/env.server";
import { stripeKeys } from "~/utils/env-settings.server";

/** The demo processor's intents, in `demo_payment_intents`. */
export const demoIntentStore: DemoIntentStore = {
  async openOrCreate({ betId, amountCents, currency, newId }) {
    return await immediate(
      async (tx) => {
        const open = (
          await tx
            .select()
            .from(demoPaymentIntents)
            .where(
              and(
                eq(demoPaymentIntents.betId, betId),
                eq(demoPaymentIntents.amountCents, amountCents),
                eq(demoPaymentIntents.currency, currency),
                eq(demoPaymentIntents.status, "requires_payment_method"),
              ),
            )
            .limit(1)
        )[0];
        if (open) return open;
        return (
          await tx
            .insert(demoPaymentIntents)
            .values({ id: newId(), betId, amountCents, currency })
            .returning()
        )[0]!;
      },
      { moneyOrMembership: true },
    );
  },
  async find(id) {
    return (
      (
        await db
          .select()
          .from(demoPaymentIntents)
          .where(eq(demoPaymentIntents.id, id))
          .limit(1)
      )[0] ?? null
    );
  },
  async recordDecline(id, message) {
    await immediate(
      (tx) =>
        tx
          .update(demoPaymentIntents)
          .set({ lastError: message })
          .where(eq(demoPaymentIntents.id, id)),
      { bookkeeping: true },
    );
  },
  async markSucceeded(id) {
    await immediate(
      (tx) =>
        tx
          .update(demoPaymentIntents)
          .set({ status: "succeeded", lastError: null })
          .where(
            and(
              eq(demoPaymentIntents.id, id),
              eq(demoPaymentIntents.status, "requires_payment_method"),
            ),
          ),
      // The processor's own record that the money moved.
      { bookkeeping: true, moneyOrMembership: true },
    );
  },
};

export const demoProvider = createDemoProvider(demoIntentStore);

/**
 * Confirms a demo intent with a card, as Stripe.js would in the browser:
 * only the intent's payer, 402 on the declined test card.
 */
export function confirmDemoIntent(input: DemoConfirmInput) {
  return demoProvider.confirmIntent(input);
}

let cached: PaymentProvider | null | undefined;

export function getPaymentProvider(): PaymentProvider | null {
  if (cached !== undefined) return cached;
  const keys = stripeKeys();
  if (isDemoMode) cached = demoProvider;
  else if (keys) cached = createStripeProvider(keys.secretKey, keys);
  else cached = null;
  return cached;
}

/** For tests: choose the provider explicitly. */
export function setPaymentProvider(provider: PaymentProvider | null) {
  cached = provider;
}
