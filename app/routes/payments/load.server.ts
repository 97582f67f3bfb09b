// Shared by /payment/{id} and /checkout/{id}: what the loser owes, through
// the model's rule (getPayableBet) and the page door.
import { ALREADY_PAID, getPayableBet } from "~/models/payments/payment.server";
import { betIdOrNotFound } from "~/models/bets/bet-id.server";
import { parseId } from "~/utils/validation";
import { pageFailure } from "~/framework/page.server";
import { splitPayout } from "~/utils/money";

/**
 * The bet the loser owes, or the model's refusal thrown (404 a bad id).
 * `allowPaid` reads a paid bet too (to show it paid); without it a paid bet
 * is the model's 409 ALREADY_PAID.
 */
export async function getPayable(
  rawId: string | undefined,
  userId: number,
  { allowPaid = false } = {},
) {
  const betId = betIdOrNotFound(rawId);
  const p = await getPayableBet({ betId, userId, allowPaid });
  const { feeCents, netCents } = splitPayout(p.amountCents);
  return {
    betId,
    bet: {
      title: p.title,
      amountCents: p.amountCents,
      currency: p.currency,
      feeCents,
      netCents,
      winnerName: p.winnerName,
      paid: p.settlement.paymentStatus === "completed",
    },
  };
}

/**
 * The loaders' view: the bet (with the model's ALREADY_PAID as the refusal
 * when it is paid), or no bet and the refusal the page shows, with its status.
 */
export async function loadPayable(rawId: string | undefined, userId: number) {
  try {
    const payable = await getPayable(rawId, userId, { allowPaid: true });
    return {
      ...payable,
      status: 200,
      refusal: payable.bet.paid ? ALREADY_PAID : null,
    };
  } catch (error) {
    const failure = pageFailure(error);
    return {
      betId: parseId(rawId) ?? 0,
      bet: null,
      status: failure.status,
      refusal: failure.message,
    };
  }
}
