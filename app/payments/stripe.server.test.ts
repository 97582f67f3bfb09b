// The Stripe provider against MSW (no network): intents with idempotency
// keys, and the webhook with good and bad signatures, replays and events
// out of order.
import type { Currency } from "~/domain/currency";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createPaymentIntent,
  recordPayment,
} from "~/models/payments/payment.server";
import {
  approveSettlement,
  proposeSettlement,
} from "~/models/settlements/settlement.server";
import { ledgerBalance } from "~/models/payments/ledger.server";
import { stripeHandlers, stripeState } from "../../tests/mocks/stripe";
import { activeBet } from "../../tests/support/factories";
import { createStripeProvider } from "./stripe.server";
import { handlePaymentWebhook } from "~/models/payments/payment-webhook.server";
import { rawDb as sqlite } from "../../tests/support/raw-sql";

const server = setupServer(...stripeHandlers);
// Made after MSW patches fetch: the fetch client keeps the fetch it finds.
let provider: ReturnType<typeof createStripeProvider>;
const webhookSecret = "whsec_test_secret";

beforeAll(() => {
  server.listen({ onUnhandledFrame: "error" });
  provider = createStripeProvider("sk_test_fake", { webhookSecret });
});
afterAll(() => server.close());
beforeEach(() => stripeState.reset());

async function settledBet(amount = 100, currency?: Currency) {
  const { creator, joiner, bet } = await activeBet(amount, currency);
  await proposeSettlement({
    betId: bet.id,
    userId: joiner.id,
    winnerId: joiner.id,
  });
  await approveSettlement({ betId: bet.id, userId: creator.id });
  return { winner: joiner, loser: creator, bet };
}

describe("Stripe charges the bet's currency", () => {
  it("a ¥1,001 bet: a JPY PaymentIntent of 1001 (whole yen), recorded in yen", async () => {
    const { loser, bet } = await settledBet(1001, "JPY");
    const intent = await createPaymentIntent({
      betId: bet.id,
      userId: loser.id,
      provider,
    });
    const stored = stripeState.intents.get(intent.intentId)!;
    expect([stored.amount, stored.currency]).toEqual([1001, "jpy"]);
    stripeState.succeed(intent.intentId);
    const s = await recordPayment({
      betId: bet.id,
      userId: loser.id,
      intentId: intent.intentId,
      provider,
    });
    expect([s.paymentStatus, s.feeCents, s.netCents]).toEqual([
      "completed",
      25,
      976,
    ]);
  });

  it("a EUR bet: a EUR PaymentIntent in cents; an intent in another currency is refused", async () => {
    const { loser, bet } = await settledBet(15, "EUR");
    const intent = await createPaymentIntent({
      betId: bet.id,
      userId: loser.id,
      provider,
    });
    const stored = stripeState.intents.get(intent.intentId)!;
    expect([stored.amount, stored.currency]).toEqual([1500, "eur"]);
    // Stripe reporting the same amount in dollars is not this bet's payment.
    stored.currency = "usd";
    stripeState.succeed(intent.intentId);
    await expect(
      recordPayment({
        betId: bet.id,
        userId: loser.id,
        intentId: intent.intentId,
        provider,
      }),
    ).rejects.toThrow("The payment amount does not match this bet.");
  });
});

let eventSeq = 0;
function event(type: string, object: unknown, id = `evt_${++eventSeq}`) {
  return {
    id,
    object: "event",
    type,
    data: { object },
    created: 0,
    livemode: false,
  };
}

async function webhookRequest(payload: string, secret = webhookSecret) {
  const signature = (await provider.client()).webhooks.generateTestHeaderString(
    {
      payload,
      secret,
    },
  );
  return new Request("http://localhost/api/stripe/webhook", {
    method: "POST",
    headers: {
      "Stripe-Signature": signature,
      "Content-Type": "application/json",
    },
    body: payload,
  });
}

const send = async (payload: string, secret?: string) =>
  handlePaymentWebhook(await webhookRequest(payload, secret), provider);

const entries = async (betId: number) =>
  (
    (await sqlite
      .prepare("SELECT count(*) AS n FROM ledger_entries WHERE bet_id = ?")
      .get(betId)) as { n: number }
  ).n;

describe("Stripe provider", () => {
  it("creates a PaymentIntent with an idempotency key; the same key gives the same intent", async () => {
    const { loser, bet } = await settledBet(100);
    const first = await createPaymentIntent({
      betId: bet.id,
      userId: loser.id,
      provider,
    });
    const again = await createPaymentIntent({
      betId: bet.id,
      userId: loser.id,
      provider,
    });
    expect(stripeState.idempotencyKeys).toEqual([
      `pi-bet-${bet.id}-user-${loser.id}`,
      `pi-bet-${bet.id}-user-${loser.id}`,
    ]);
    expect(again.intentId).toBe(first.intentId);
    expect(first.clientSecret).toMatch(/_secret_/);
    const stored = stripeState.intents.get(first.intentId)!;
    expect(stored.amount).toBe(10_000);
    expect(stored.metadata).toEqual({
      betId: String(bet.id),
      payerId: String(loser.id),
    });
    // Recorded only after Stripe says it succeeded.
    await expect(
      recordPayment({
        betId: bet.id,
        userId: loser.id,
        intentId: first.intentId,
        provider,
      }),
    ).rejects.toThrow("This payment has not succeeded.");
    stripeState.succeed(first.intentId);
    const s = await recordPayment({
      betId: bet.id,
      userId: loser.id,
      intentId: first.intentId,
      amountCents: 10_000,
      provider,
    });
    expect(s.paymentStatus).toBe("completed");
    expect(await entries(bet.id)).toBe(4);
  });

  it("creates a Checkout Session for the no-JavaScript path", async () => {
    const { loser, bet } = await settledBet(20);
    const { url } = await provider.createCheckoutSession({
      betId: bet.id,
      payerId: loser.id,
      amountCents: 2_000,
      currency: "USD",
      title: bet.title,
      origin: "http://localhost",
    });
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(stripeState.sessions[0]?.metadata).toEqual({
      betId: String(bet.id),
      payerId: String(loser.id),
    });
  });
});

describe("Stripe webhook", () => {
  it("refuses a bad signature and changes nothing", async () => {
    const { loser, bet } = await settledBet(100);
    const payload = JSON.stringify(
      event("payment_intent.succeeded", {
        id: "pi_forged",
        object: "payment_intent",
        amount: 10_000,
        status: "succeeded",
        metadata: { betId: String(bet.id), payerId: String(loser.id) },
      }),
    );
    const res = await send(payload, "whsec_wrong");
    expect(res.status).toBe(400);
    const tampered = await webhookRequest(payload);
    const forged = new Request(tampered, {
      body: payload.replace("10000", "1"),
    });
    expect((await handlePaymentWebhook(forged, provider)).status).toBe(400);
    const unsigned = new Request("http://localhost/api/stripe/webhook", {
      method: "POST",
      body: payload,
    });
    expect((await handlePaymentWebhook(unsigned, provider)).status).toBe(400);
    expect(await entries(bet.id)).toBe(0);
  });

  it("records a good event once; a replay and out-of-order events leave the ledger unchanged", async () => {
    const { loser, bet } = await settledBet(100);
    const intent = await createPaymentIntent({
      betId: bet.id,
      userId: loser.id,
      provider,
    });
    const pi = {
      id: intent.intentId,
      object: "payment_intent",
      amount: 10_000,
      status: "succeeded",
      metadata: { betId: String(bet.id), payerId: String(loser.id) },
    };
    const succeeded = JSON.stringify(event("payment_intent.succeeded", pi));
    const res = await send(succeeded);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ recorded: true });
    expect(await entries(bet.id)).toBe(4);
    const status = async () =>
      await sqlite
        .prepare("SELECT payment_status AS s FROM settlements WHERE bet_id = ?")
        .get(bet.id);
    expect(await status()).toEqual({ s: "completed" });

    // The same event again (Stripe retries).
    const replay = await send(succeeded);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ recorded: false });
    // A different event for the same intent (a duplicate delivery with a new id).
    await send(JSON.stringify(event("payment_intent.succeeded", pi)));
    // Out of order: a failure and a 'processing' arriving after the success.
    await send(
      JSON.stringify(
        event("payment_intent.payment_failed", {
          ...pi,
          status: "requires_payment_method",
        }),
      ),
    );
    await send(
      JSON.stringify(
        event("payment_intent.processing", { ...pi, status: "processing" }),
      ),
    );
    // The client's own record call after the webhook: no new effect.
    stripeState.succeed(intent.intentId);
    await recordPayment({
      betId: bet.id,
      userId: loser.id,
      intentId: intent.intentId,
      provider,
    });
    expect(await entries(bet.id)).toBe(4);
    expect(await status()).toEqual({ s: "completed" });
    expect(await ledgerBalance()).toBe(0);
    // A second, different payment for an already-paid bet is acknowledged, not applied.
    const other = await send(
      JSON.stringify(
        event("payment_intent.succeeded", { ...pi, id: "pi_other" }),
      ),
    );
    expect(other.status).toBe(200);
    expect(await entries(bet.id)).toBe(4);
  });

  it("records a Checkout Session payment (the no-JS path)", async () => {
    const { loser, bet } = await settledBet(15);
    const res = await send(
      JSON.stringify(
        event("checkout.session.completed", {
          id: "cs_test_x",
          object: "checkout.session",
          payment_status: "paid",
          payment_intent: "pi_from_checkout",
          amount_total: 1_500,
          metadata: { betId: String(bet.id), payerId: String(loser.id) },
        }),
      ),
    );
    expect(await res.json()).toMatchObject({ recorded: true });
    expect(await entries(bet.id)).toBe(4);
  });
});
