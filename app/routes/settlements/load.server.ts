// Shared by the settlement screens: the id from the URL and the bet as the
// viewer may see it, or the page's own 404.
import { data } from "react-router";
import { getBetForViewer, type BetView } from "~/models/bets/bet-access.server";
import type { SettleFacts } from "~/models/settlements/settlement-rules.server";
import { betIdOrNotFound } from "~/models/bets/bet-id.server";
import { page } from "~/framework/page.server";
import type { Refusal } from "~/utils/errors";
import {
  requireUser,
  type RequestArgs,
} from "~/models/accounts/session.server";
import { getSettlementView } from "~/models/settlements/settlement-view.server";

/** The bet id from the URL, or the same 404 as a bet the viewer cannot see. */
export function betIdFrom(params: { id?: string }) {
  return page(() => betIdOrNotFound(params.id));
}

export async function loadBetOr404(betId: number, userId: number) {
  return page(async () => getBetForViewer({ betId, userId }));
}

/**
 * The propose and settle-bet pages' loader: the bet, the parties to choose
 * from, and what the page's policy says of this viewer (`blocked`, 403 for
 * who may never, 200 with the reason for a bet not settleable now).
 */
export async function settleFormLoader(
  args: RequestArgs & { params: { id?: string } },
  policy: (facts: SettleFacts, userId: number) => Refusal | null,
) {
  const { params } = args;
  const user = await requireUser(args);
  const betId = betIdFrom(params);
  const bet = await loadBetOr404(betId, user.id);
  const live = (await getSettlementView({ betId, userId: user.id })) !== null;
  const refusal = policy(settleFactsFor(bet, live), user.id);
  return data(
    {
      viewerId: user.id,
      bet: {
        id: bet.id,
        title: bet.title,
        amountCents: bet.amountCents,
        currency: bet.currency,
        people: partiesOf(bet),
      },
      blocked: refusal?.message ?? null,
      live,
    },
    { status: refusal?.status === 403 ? 403 : 200 },
  );
}

/** The settle policies' facts from the bet as the viewer sees it. */
export function settleFactsFor(
  bet: BetView,
  hasLiveProposal: boolean,
): SettleFacts {
  return {
    creatorId: bet.creatorId,
    status: bet.status,
    partyIds: bet.participants.map((p) => p.id),
    hasLiveProposal,
  };
}

export function partiesOf(bet: {
  participants: { id: number; username: string; seat: number }[];
}) {
  return bet.participants.map((p) => ({
    id: p.id,
    username: p.username,
    role: p.seat === 1 ? "creator" : "participant",
  }));
}
