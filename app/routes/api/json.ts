// The /api's JSON shapes of a bet and a settlement (docs/api.md): what the
// API answers, beside the API routes, apart from the models' rules.
import type { getSettlement } from "~/models/settlements/settlement-view.server";
import type { BetView } from "~/models/bets/bet-access.server";
import { minorToUnits, type Currency } from "~/domain/currency";

export function toBetJson(bet: BetView) {
  return {
    id: bet.id,
    code: bet.code,
    title: bet.title,
    description: bet.description,
    amount: minorToUnits(bet.amountCents, bet.currency),
    currency: bet.currency,
    visibility: bet.visibility,
    deadline: bet.deadline.toISOString(),
    status: bet.status,
    creatorId: bet.creatorId,
    participantIds: bet.participants.map((p) => p.id),
    winnerId: bet.winnerId,
    createdAt: bet.createdAt.toISOString(),
    updatedAt: bet.updatedAt.toISOString(),
    refereeId: bet.refereeId,
    voidedAt: bet.voidedAt ? bet.voidedAt.toISOString() : null,
    paymentDueAt: bet.paymentDueAt ? bet.paymentDueAt.toISOString() : null,
    dispute: bet.disputeReferredAt
      ? {
          referredAt: bet.disputeReferredAt.toISOString(),
          referredBy: bet.disputeReferredBy,
        }
      : null,
  };
}

export function toBetListJson(bet: BetView, userId: number) {
  return {
    ...toBetJson(bet),
    type: bet.creatorId === userId ? ("created" as const) : ("joined" as const),
  };
}

/** A settlement row, as the models read it. */
type Settlement = NonNullable<Awaited<ReturnType<typeof getSettlement>>>;

/** `feeAmount`/`netAmount` are numbers in the bet's currency, with at most its digits. */
export function toSettlementJson(s: Settlement, currency: Currency) {
  return {
    id: s.betId,
    betId: s.betId,
    winnerId: s.winnerId,
    loserId: s.loserId,
    proposedBy: s.proposedBy,
    settlementNotes: s.notes,
    creatorApproved: s.creatorApproved,
    participantApproved: s.participantApproved,
    outcome: s.outcome,
    proposedAt: s.proposedAt.toISOString(),
    respondBy: s.respondBy ? s.respondBy.toISOString() : null,
    resolution: s.resolution,
    settledAt: s.settledAt ? s.settledAt.toISOString() : null,
    feeAmount: s.feeCents === null ? null : minorToUnits(s.feeCents, currency),
    netAmount: s.netCents === null ? null : minorToUnits(s.netCents, currency),
    paymentStatus: s.paymentStatus,
  };
}
