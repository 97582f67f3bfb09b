// Shared by /payment/{id} and /checkout/{id}: what the loser owes, or the
// refusal as a message the page can show (with its status).
import { getPayableBet } from "~/models/payment.server";
import { parseId } from "~/utils/api.server";
import { isDomainError } from "~/utils/errors";
import { splitPayout } from "~/utils/money";

export function loadPayable(rawId: string | undefined, userId: number) {
  const betId = parseId(rawId);
  if (betId === null)
    return {
      betId: 0,
      status: 404,
      refusal: "This bet could not be found or has expired.",
      bet: null,
    } as const;
  try {
    const p = getPayableBet({ betId, userId, allowPaid: true });
    const { feeCents, netCents } = splitPayout(p.amountCents);
    return {
      betId,
      status: 200,
      refusal: null,
      bet: {
        title: p.title,
        amountCents: p.amountCents,
        feeCents,
        netCents,
        winnerName: p.winnerName,
        paid: p.settlement.paymentStatus === "completed",
      },
    } as const;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return {
      betId,
      status: error.status,
      refusal: error.message,
      bet: null,
    } as const;
  }
}
