// Shared by the payment model tests: a settled bet, paying it with the
// demo provider's good test card, and its ledger lines.
import {
  createPaymentIntent,
  isIntentPayer,
} from "~/models/payments/payment.server";
import {
  approveSettlement,
  proposeSettlement,
} from "~/models/settlements/settlement.server";
import { confirmDemoIntent } from "~/models/payments/payment-provider.server";
import { activeBet } from "./factories";
import type { Currency } from "~/domain/currency";
import { rawDb as sqlite } from "./raw-sql";

export const GOOD = {
  cardNumber: "4242 4242 4242 4242",
  expiry: "12/40",
  cvc: "123",
};

/** A settled bet: the joiner won, the creator lost and owes `amount`. */
export async function settledBet(amount = 100, currency?: Currency) {
  const { creator, joiner, bet } = await activeBet(amount, currency);
  await proposeSettlement({
    betId: bet.id,
    userId: joiner.id,
    winnerId: joiner.id,
  });
  await approveSettlement({ betId: bet.id, userId: creator.id });
  return { winner: joiner, loser: creator, bet };
}

/** Opens the loser's intent and confirms it with the good test card. */
export async function pay(betId: number, userId: number) {
  const intent = await createPaymentIntent({ betId, userId });
  await confirmDemoIntent({
    intentId: intent.intentId,
    card: GOOD,
    isPayer: async (id) => isIntentPayer(id, userId),
  });
  return intent;
}

/** The ledger lines of one bet, in order. */
export const entriesOf = async (betId: number) =>
  await sqlite
    .prepare(
      'SELECT user_id AS "userId", kind, amount_cents AS cents, currency FROM ledger_entries WHERE bet_id = ? ORDER BY id',
    )
    .all(betId);
