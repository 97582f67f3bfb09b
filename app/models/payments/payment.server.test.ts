// Payments (docs/product-rules.md#paying): the demo card and paying a settled bet, the model rules.
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALREADY_PAID,
  AMOUNT_MISMATCH,
  INTENT_NOT_SUCCEEDED,
  INTENT_UNKNOWN,
  NOT_LOSER,
  NOT_SETTLED,
  PAYMENTS_UNAVAILABLE,
  createPaymentIntent,
  isIntentPayer,
  recordPayment,
} from "./payment.server";
import { ledgerBalance } from "./ledger.server";
import { listActivity } from "../social/activity.server";
import {
  CARD_DECLINED,
  TEST_CARDS_ONLY,
  validateDemoCard,
} from "~/payments/demo.server";
import {
  confirmDemoIntent,
  demoProvider,
  setPaymentProvider,
} from "./payment-provider.server";
import { DomainError } from "~/utils/errors";
import { activeBet, person } from "../../../tests/support/factories";
import { STORM_TIMEOUT_MS, storm } from "../../../tests/support/storm";
import { expectRejection } from "../../../tests/support/expect-error";
import {
  GOOD,
  entriesOf,
  pay,
  settledBet,
} from "../../../tests/support/paid-bets";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

beforeAll(() => setPaymentProvider(demoProvider));

describe("demo card validation (docs/product-rules.md#paying)", () => {
  it("accepts the test card and refuses everything else with the product's words", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(validateDemoCard(GOOD, now).cardNumber).toBe("4242424242424242");
    expect(validateDemoCard({ ...GOOD, expiry: "11/26" }, now)).toBeTruthy();
    const e = (() => {
      try {
        validateDemoCard(
          { cardNumber: "5555 5555 5555 4444", expiry: "10/26", cvc: "12" },
          now,
        );
      } catch (error) {
        return error as DomainError;
      }
    })();
    expect(e?.status).toBe(400);
    expect(e?.fieldErrors).toEqual({
      cardNumber: [TEST_CARDS_ONLY],
      expiry: ["Expiry must be in the future."],
      cvc: ["CVC must be 3 or 4 digits."],
    });
    expect(() => validateDemoCard({ ...GOOD, expiry: "13/30" }, now)).toThrow(
      "Expiry must be MM/YY.",
    );
    expect(() => validateDemoCard({ ...GOOD, cardNumber: "" }, now)).toThrow(
      "Card number is required.",
    );
  });
});

describe("paying a settled bet", () => {
  it("the loser pays the bet amount once; the ledger sums to zero", async () => {
    const { winner, loser, bet } = await settledBet(100);
    const intent = await createPaymentIntent({
      betId: bet.id,
      userId: loser.id,
    });
    expect(intent.amountCents).toBe(10_000);
    // Not yet confirmed with the provider: the client's word is not enough.
    await expectRejection(
      () =>
        recordPayment({
          betId: bet.id,
          userId: loser.id,
          intentId: intent.intentId,
        }),
      409,
      INTENT_NOT_SUCCEEDED,
    );
    // A declined card: 402, nothing recorded.
    await expectRejection(
      () =>
        confirmDemoIntent({
          intentId: intent.intentId,
          card: { ...GOOD, cardNumber: "4000 0000 0000 0002" },
          isPayer: async (id) => isIntentPayer(id, loser.id),
        }),
      402,
      CARD_DECLINED,
    );
    // Someone else cannot confirm the loser's intent.
    await expectRejection(
      () =>
        confirmDemoIntent({
          intentId: intent.intentId,
          card: GOOD,
          isPayer: async (id) => isIntentPayer(id, winner.id),
        }),
      404,
    );
    await confirmDemoIntent({
      intentId: intent.intentId,
      card: GOOD,
      isPayer: async (id) => isIntentPayer(id, loser.id),
    });
    await expectRejection(
      () =>
        recordPayment({
          betId: bet.id,
          userId: loser.id,
          intentId: intent.intentId,
          amountCents: 5_000,
        }),
      409,
      AMOUNT_MISMATCH,
    );
    const settlement = await recordPayment({
      betId: bet.id,
      userId: loser.id,
      intentId: intent.intentId,
      amountCents: 10_000,
    });
    expect(settlement.paymentStatus).toBe("completed");
    // The same intent again: 200-like, no new effect.
    await recordPayment({
      betId: bet.id,
      userId: loser.id,
      intentId: intent.intentId,
    });
    expect(await entriesOf(bet.id)).toEqual([
      { userId: loser.id, kind: "payment", cents: -10_000, currency: "USD" },
      { userId: winner.id, kind: "payout", cents: 10_000, currency: "USD" },
      { userId: winner.id, kind: "fee", cents: -250, currency: "USD" },
      { userId: null, kind: "fee", cents: 250, currency: "USD" },
    ]);
    expect((await listActivity(winner.id))[0]).toMatchObject({
      type: "payment_received",
    });
    // Paying twice.
    await expectRejection(
      () => createPaymentIntent({ betId: bet.id, userId: loser.id }),
      409,
      ALREADY_PAID,
    );
    const paymentId = (
      (await sqlite
        .prepare("SELECT id FROM payments WHERE intent_id = ?")
        .get(intent.intentId)) as {
        id: number;
      }
    ).id;
    expect(await ledgerBalance(paymentId)).toBe(0);
    expect(await ledgerBalance()).toBe(0);
  });

  it("refuses the winner, strangers, unsettled bets, unknown intents and no provider", async () => {
    const { winner, loser, bet } = await settledBet(30);
    const stranger = await person("s");
    await expectRejection(
      () => createPaymentIntent({ betId: bet.id, userId: winner.id }),
      403,
      NOT_LOSER,
    );
    await expectRejection(
      () => createPaymentIntent({ betId: bet.id, userId: stranger.id }),
      403,
    );
    await expectRejection(
      () => createPaymentIntent({ betId: 999_999, userId: loser.id }),
      404,
    );
    const open = await activeBet();
    await expectRejection(
      () =>
        createPaymentIntent({ betId: open.bet.id, userId: open.creator.id }),
      409,
      NOT_SETTLED,
    );
    await expectRejection(
      () =>
        recordPayment({
          betId: bet.id,
          userId: loser.id,
          intentId: "demo_pi_nope",
        }),
      409,
      INTENT_UNKNOWN,
    );
    await expectRejection(
      () =>
        createPaymentIntent({
          betId: bet.id,
          userId: loser.id,
          provider: null,
        }),
      409,
      PAYMENTS_UNAVAILABLE,
    );
    // An intent made for another bet cannot pay this one.
    const other = await settledBet(30);
    const foreign = await pay(other.bet.id, other.loser.id);
    await expectRejection(
      () =>
        recordPayment({
          betId: bet.id,
          userId: loser.id,
          intentId: foreign.intentId,
        }),
      409,
      INTENT_UNKNOWN,
    );
  });

  it(
    "10 simultaneous record-payments of one intent record one payment and one set of entries",
    { timeout: STORM_TIMEOUT_MS },
    async () => {
      const { loser, bet } = await settledBet(55);
      const intent = await pay(bet.id, loser.id);
      const dbPath = process.env.DATABASE_PATH!;
      const results = await storm(
        "tests/support/settle-worker.ts",
        Array.from({ length: 10 }, () => [
          dbPath,
          "record",
          String(bet.id),
          String(loser.id),
          intent.intentId,
        ]),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      expect(
        await sqlite
          .prepare(
            "SELECT count(*) AS n FROM payments WHERE bet_id = ? AND status = 'completed'",
          )
          .get(bet.id),
      ).toEqual({ n: 1 });
      expect(await entriesOf(bet.id)).toHaveLength(4);
      expect(await ledgerBalance()).toBe(0);
    },
  );
});
