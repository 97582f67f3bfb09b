// payBet, the one payment door the checkout page and the /api routes share,
// with each provider reading its own form and webhook (docs/decisions/0935-payments-door.md).
// Stripe is answered by MSW (no network).
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CARD_DECLINED } from "~/payments/demo.server";
import { demoProvider } from "./payment-provider.server";
import {
  CHECKOUT_FORM_REFUSED,
  createStripeProvider,
} from "~/payments/stripe.server";
import { stripeHandlers, stripeState } from "../../../tests/mocks/stripe";
import { expectRejection } from "../../../tests/support/expect-error";
import { activeBet } from "../../../tests/support/factories";
import { ledgerBalance } from "./ledger.server";
import { payBet, paymentOptions } from "./pay-bet.server";
import {
  ALREADY_PAID,
  NOT_LOSER,
  PAYMENTS_UNAVAILABLE,
  createPaymentIntent,
} from "./payment.server";
import { handlePaymentWebhook } from "./payment-webhook.server";
import {
  approveSettlement,
  proposeSettlement,
} from "../settlements/settlement.server";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

const server = setupServer(...stripeHandlers);
let stripe: ReturnType<typeof createStripeProvider>;
beforeAll(() => {
  server.listen({ onUnhandledFrame: "error" });
  stripe = createStripeProvider("sk_test_fake", {
    publishableKey: "pk_test_fake",
  });
});
afterAll(() => server.close());
beforeEach(() => stripeState.reset());

async function settledBet(amount = 100) {
  const { creator, joiner, bet } = await activeBet(amount);
  await proposeSettlement({
    betId: bet.id,
    userId: joiner.id,
    winnerId: joiner.id,
  });
  await approveSettlement({ betId: bet.id, userId: creator.id });
  return { winner: joiner, loser: creator, bet };
}

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return { kind: "form" as const, fields: f, origin: "http://localhost" };
};
const CARD = { cardNumber: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" };

const entries = async (betId: number) =>
  (await sqlite
    .prepare(
      "SELECT count(*) AS n, coalesce(sum(amount_cents), 0) AS sum FROM ledger_entries WHERE bet_id = ?",
    )
    .get(betId)) as { n: number; sum: number };

describe("payBet with the demo provider", () => {
  it("pays by the card form: verified, recorded once, entries summing to zero", async () => {
    const { loser, winner, bet } = await settledBet(30);
    const by = form(CARD);
    const pay = () =>
      payBet({ betId: bet.id, userId: loser.id, by, provider: demoProvider });
    await expectRejection(
      () =>
        payBet({
          betId: bet.id,
          userId: winner.id,
          by,
          provider: demoProvider,
        }),
      403,
      NOT_LOSER,
    );
    const paid = await pay();
    expect(paid.kind).toBe("paid");
    if (paid.kind === "paid")
      expect(paid.settlement.paymentStatus).toBe("completed");
    expect(await entries(bet.id)).toEqual({ n: 4, sum: 0 });
    await expectRejection(pay, 409, ALREADY_PAID);
    expect((await entries(bet.id)).n).toBe(4);
    expect(await ledgerBalance()).toBe(0);
  });

  it("refuses a declined card (402) and bad card fields (400) and records nothing", async () => {
    const { loser, bet } = await settledBet(10);
    const declined = await expectRejection(
      () =>
        payBet({
          betId: bet.id,
          userId: loser.id,
          by: form({ ...CARD, cardNumber: "4000000000000002" }),
          provider: demoProvider,
        }),
      402,
      CARD_DECLINED,
    );
    expect(declined.title).toBe("Payment failed");
    const bad = await expectRejection(
      () =>
        payBet({
          betId: bet.id,
          userId: loser.id,
          by: form({ ...CARD, cvc: "x" }),
          provider: demoProvider,
        }),
      400,
    );
    expect(bad.fieldErrors?.cvc).toBeDefined();
    expect((await entries(bet.id)).n).toBe(0);
  });

  it("refuses with no provider (409), and the demo has no webhook (404)", async () => {
    const { loser, bet } = await settledBet(10);
    await expectRejection(
      () =>
        payBet({
          betId: bet.id,
          userId: loser.id,
          by: form(CARD),
          provider: null,
        }),
      409,
      PAYMENTS_UNAVAILABLE,
    );
    const request = new Request("http://localhost/api/stripe/webhook", {
      method: "POST",
      body: "{}",
    });
    await expectRejection(
      () => handlePaymentWebhook(request, demoProvider),
      404,
    );
    await expectRejection(() => handlePaymentWebhook(request, null), 404);
    expect(paymentOptions(null)).toEqual({
      provider: null,
      publishableKey: null,
    });
    expect(paymentOptions(demoProvider)).toEqual({
      provider: "demo",
      publishableKey: null,
    });
  });
});

describe("payBet with Stripe", () => {
  it("sends the no-JS form to a Checkout Session and records a confirmed intent", async () => {
    const { loser, bet } = await settledBet(20);
    const go = await payBet({
      betId: bet.id,
      userId: loser.id,
      by: form({ intent: "stripe-checkout" }),
      provider: stripe,
    });
    expect(go).toMatchObject({ kind: "redirect" });
    if (go.kind === "redirect")
      expect(go.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    expect(stripeState.sessions).toHaveLength(1);
    expect((await entries(bet.id)).n).toBe(0);

    const refused = await expectRejection(
      () =>
        payBet({
          betId: bet.id,
          userId: loser.id,
          by: form({ intent: "stripe-record", paymentIntentId: "nope" }),
          provider: stripe,
        }),
      400,
      CHECKOUT_FORM_REFUSED,
    );
    expect(refused.title).toBe("Payment error");

    const intent = await createPaymentIntent({
      betId: bet.id,
      userId: loser.id,
      provider: stripe,
    });
    stripeState.succeed(intent.intentId);
    const paid = await payBet({
      betId: bet.id,
      userId: loser.id,
      by: form({ intent: "stripe-record", paymentIntentId: intent.intentId }),
      provider: stripe,
    });
    expect(paid.kind).toBe("paid");
    // The API's way (record-payment): the same intent again, no new effect.
    const again = await payBet({
      betId: bet.id,
      userId: loser.id,
      by: { kind: "intent", intentId: intent.intentId, amountCents: 2_000 },
      provider: stripe,
    });
    expect(again.settlement.paymentStatus).toBe("completed");
    expect(await entries(bet.id)).toEqual({ n: 4, sum: 0 });
    expect(paymentOptions(stripe)).toEqual({
      provider: "stripe",
      publishableKey: "pk_test_fake",
    });
  });

  it("has no webhook without a webhook secret (404)", async () => {
    await expectRejection(
      () =>
        handlePaymentWebhook(
          new Request("http://localhost/api/stripe/webhook", {
            method: "POST",
            body: "{}",
          }),
          stripe,
        ),
      404,
    );
  });
});
