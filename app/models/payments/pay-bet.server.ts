// Paying a bet (docs/product-rules.md#paying), the one door the checkout page and the /api
// payment routes share: the loser only, verified with the provider, recorded
// once per intent with its ledger entries in one immediate transaction
// (payment.server.ts). The provider reads its own form and webhook, so no
// caller casts to a provider or branches on its name (docs/decisions/0935-payments-door.md).
import type { Settlement } from "~/db/schema";
import type { CardInput } from "~/payments/demo.server";
import type {
  CheckoutFields,
  PaymentProvider,
} from "~/payments/provider.server";
import {
  confirmDemoIntent,
  getPaymentProvider,
} from "./payment-provider.server";
import { isDemoMode } from "~/utils/env.server";
import { notFound } from "~/utils/errors";
import {
  createPaymentIntent,
  getPayableBet,
  isIntentPayer,
  recordPayment,
  requireProvider,
} from "./payment.server";

/** The client confirmed an intent with the provider (the API, the Payment Element). */
type ByIntent = {
  kind: "intent";
  intentId: string;
  /** What the client says it paid, in the bet's currency's smallest unit. */
  amountCents?: number;
};
/** The checkout page's form: the provider says what it means. */
type ByForm = { kind: "form"; fields: CheckoutFields; origin: string };
export type PayBy = ByIntent | ByForm;

type Paid = { kind: "paid"; settlement: Settlement };
export type PayOutcome =
  | Paid
  /** The provider's own page takes the card (Stripe Checkout, no JavaScript). */
  | { kind: "redirect"; url: string };

type PayArgs<By extends PayBy> = {
  betId: number;
  userId: number;
  by: By;
  provider?: PaymentProvider | null;
};

/**
 * Pays `betId` as `userId`: 404 an unseen bet, 403 anyone but the loser, 409
 * not settled, already paid by another intent, no provider, or an intent the
 * provider does not vouch for; 400/402 a card the provider refuses. The same
 * intent twice records once.
 */
export async function payBet(args: PayArgs<ByIntent>): Promise<Paid>;
export async function payBet(args: PayArgs<PayBy>): Promise<PayOutcome>;
export async function payBet({
  betId,
  userId,
  by,
  provider = getPaymentProvider(),
}: PayArgs<PayBy>): Promise<PayOutcome> {
  let intentId: string;
  let amountCents: number | undefined;
  if (by.kind === "intent") {
    ({ intentId, amountCents } = by);
  } else {
    const payable = await getPayableBet({ betId, userId });
    const p = requireProvider(provider);
    const step = await p.checkout({
      betId,
      payerId: userId,
      amountCents: payable.amountCents,
      currency: payable.currency,
      title: payable.title,
      origin: by.origin,
      fields: by.fields,
      openIntent: async () =>
        (await createPaymentIntent({ betId, userId, provider: p })).intentId,
      isPayer: async (id) => isIntentPayer(id, userId),
    });
    if (step.kind === "redirect") return step;
    intentId = step.intentId;
  }
  const settlement = await recordPayment({
    betId,
    userId,
    intentId,
    amountCents,
    provider,
  });
  return { kind: "paid", settlement };
}

/** What the payment pages show: which provider's form, and Stripe.js's key. */
export function paymentOptions(provider = getPaymentProvider()) {
  return {
    provider: provider?.name ?? null,
    publishableKey: provider?.publishableKey ?? null,
  };
}

/**
 * The demo provider's stand-in for Stripe.js confirming a card in the
 * browser (POST /api/payments/demo/confirm): demo mode only, and only by the
 * intent's payer.
 */
export function confirmDemoPayment({
  intentId,
  userId,
  card,
}: {
  intentId: string;
  userId: number;
  card: Partial<Record<keyof CardInput, unknown>>;
}) {
  if (!isDemoMode) throw notFound("Not found");
  return confirmDemoIntent({
    intentId,
    card,
    isPayer: async (id) => isIntentPayer(id, userId),
  });
}
