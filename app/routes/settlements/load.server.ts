// Shared by the settlement screens: the id from the URL and the bet as the
// viewer may see it, or the page's own 404.
import { data } from "react-router";
import { getBetForViewer, type BetView } from "~/models/bet-access.server";
import type { SettleFacts } from "~/models/settlement-rules.server";
import { parseId } from "~/utils/api.server";
import { page } from "~/utils/page.server";

export function betIdFrom(params: { id?: string }) {
  const id = parseId(params.id);
  if (id === null) throw data("This bet could not be found.", { status: 404 });
  return id;
}

export function loadBetOr404(betId: number, userId: number) {
  return page(() => getBetForViewer({ betId, userId }));
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
