// POST /api/bets/{id}/settle {winnerId}: creator only (ruling 8). A
// concession answers 200 {bet, settlement}; naming themself, 201 settlement.
import type { Route } from "./+types/settle";
import { BET_NOT_FOUND } from "~/models/bet-access.server";
import { toBetJson, toSettlementJson } from "~/routes/api/json";
import { parseProposalInput } from "~/models/settlement-rules.server";
import { settleBet } from "~/models/settlement.server";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(BET_NOT_FOUND);
    const { winnerId, outcome } = parseProposalInput(await readJson(request));
    const result = settleBet({ betId, userId: user.id, winnerId, outcome });
    if (result.kind === "settled")
      return Response.json({
        bet: toBetJson(result.bet),
        settlement: toSettlementJson(result.settlement),
      });
    return Response.json(toSettlementJson(result.settlement), { status: 201 });
  });
}
