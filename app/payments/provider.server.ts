// One interface, two providers (DESIGN §1, ruling 11): the demo provider in
// DEMO_MODE=1, Stripe when its test keys are set, neither otherwise (then
// payments say they are unavailable: docs/decisions/0201-no-payment-provider.md).
import { isDemoMode, stripeKeys } from "~/utils/env.server";
import { demoProvider } from "./demo.server";
import { createStripeProvider } from "./stripe.server";

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
  amountCents: number;
  status: IntentStatus | string;
  /** From the intent's metadata: which bet and who pays. */
  betId: number | null;
  payerId: number | null;
};

export type CreateIntentInput = {
  betId: number;
  payerId: number;
  amountCents: number;
  /** Stripe's Idempotency-Key: the same key returns the same intent. */
  idempotencyKey: string;
};

export interface PaymentProvider {
  readonly name: "demo" | "stripe";
  createIntent(input: CreateIntentInput): Promise<ProviderIntent>;
  /** Asks the provider itself: the server never takes the client's word. */
  retrieveIntent(id: string): Promise<ProviderIntent | null>;
}

let cached: PaymentProvider | null | undefined;

export function getPaymentProvider(): PaymentProvider | null {
  if (cached !== undefined) return cached;
  const keys = stripeKeys();
  if (isDemoMode) cached = demoProvider;
  else if (keys) cached = createStripeProvider(keys.secretKey);
  else cached = null;
  return cached;
}

/** For tests: choose the provider explicitly. */
export function setPaymentProvider(provider: PaymentProvider | null) {
  cached = provider;
}

export function intentIdempotencyKey(betId: number, payerId: number) {
  return `pi-bet-${betId}-user-${payerId}`;
}
