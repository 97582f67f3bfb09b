// POST /api/bets/{id}/settle {winnerId}: creator only (docs/product-rules.md#settlement). A
// concession answers 200 {bet, settlement}; naming themself, 201 settlement.
import type { Route } from "./+types/settle";
import { betCurrency } from "~/models/bets/bet-access.server";
import { toBetJson, toSettlementJson } from "~/routes/api/json";
import { parseProposalInput } from "~/models/settlements/settlement-input.server";
import { settleBet } from "~/models/settlements/settlement.server";
import { api, readJson } from "~/framework/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    const { winnerId, outcome } = parseProposalInput(await readJson(request));
    const result = await settleBet({
      betId,
      userId: user.id,
      winnerId,
      outcome,
    });
    if (result.kind === "settled")
      return Response.json({
        bet: toBetJson(result.bet),
        settlement: toSettlementJson(result.settlement, result.bet.currency),
      });
    return Response.json(
      toSettlementJson(result.settlement, await betCurrency(betId)),
      { status: 201 },
    );
  });
}
