// One interface, two providers (docs/product-rules.md#paying): the demo provider in
// DEMO_MODE=1, Stripe when its test keys are set, neither otherwise (then
// payments say they are unavailable: docs/decisions/0201-no-payment-provider.md).
// Everything a caller needs from a provider is a method here, so no caller
// casts to one provider or branches on its name (docs/decisions/0935-payments-door.md).
// Which provider this server uses is chosen in the model layer
// (models/payments/payment-provider.server.ts), which hands the demo provider its store.

import type { Currency } from "~/domain/currency";

export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "succeeded"
  | "canceled";

export type ProviderIntent = {
  id: string;
  clientSecret: string | null;
  /** In the smallest unit of `currency` (whole yen for JPY). */
  amountCents: number;
  /** ISO 4217, upper case, as the provider reports it. */
  currency: string;
  status: IntentStatus | string;
  /** From the intent's metadata: which bet and who pays. */
  betId: number | null;
  payerId: number | null;
};

export type CreateIntentInput = {
  betId: number;
  payerId: number;
  /** The bet's amount in its currency's smallest unit. */
  amountCents: number;
  currency: Currency;
  /** Stripe's Idempotency-Key: the same key returns the same intent. */
  idempotencyKey: string;
};

/** The checkout page's form, as posted (with JavaScript or without). */
export type CheckoutFields = Pick<FormData, "get">;

export type CheckoutInput = {
  betId: number;
  payerId: number;
  amountCents: number;
  currency: Currency;
  title: string;
  /** Where the provider's own page sends the payer back to. */
  origin: string;
  fields: CheckoutFields;
  /**
   * Opens (or re-finds) the payer's intent through the model, which records
   * it as this payer's: providers never call the models (docs/decisions/0920-layers-by-lint.md).
   */
  openIntent: () => Promise<string>;
  /** Whether the person paying is the payer this intent was opened for. */
  isPayer: (intentId: string) => Promise<boolean>;
};

/**
 * What the checkout form leads to: the provider's own page to send the payer
 * to, or an intent the provider says was confirmed, for the model to verify
 * with the provider and record.
 */
export type CheckoutStep =
  { kind: "redirect"; url: string } | { kind: "record"; intentId: string };

/**
 * A webhook delivery as the provider reads it: `absent` (this provider has no
 * webhook here: 404), `forged` (bad or missing signature: 400), or the event
 * with the succeeded payment it reports (null when it reports none).
 */
export type WebhookReading =
  | { kind: "absent" }
  | { kind: "forged" }
  | {
      kind: "event";
      event: { id: string; type: string };
      succeeded: ProviderIntent | null;
    };

export interface PaymentProvider {
  readonly name: "demo" | "stripe";
  /** What the browser needs to pay with this provider (Stripe.js), or null. */
  readonly publishableKey: string | null;
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** Asks the provider itself: the server never takes the client's word. */
  retrieveIntent(id: string): Promise<ProviderIntent | null>;
  /** Reads the checkout page's form into the next step (a 400 if it makes no sense). */
  checkout(input: CheckoutInput): Promise<CheckoutStep>;
  /** Checks and reads a webhook delivery. */
  readWebhook(request: Request): Promise<WebhookReading>;
}

export function intentIdempotencyKey(betId: number, payerId: number) {
  return `pi-bet-${betId}-user-${payerId}`;
}
