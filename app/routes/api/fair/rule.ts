// POST /api/bets/{id}/rule {winnerId} or {outcome: "void"}: the referee's
// ruling settles at once (docs/product-rules.md#referee): 200 {bet, settlement}.
import type { Route } from "./+types/rule";
import { toBetJson, toSettlementJson } from "~/routes/api/json";
import { parseProposalInput } from "~/models/settlements/settlement-input.server";
import { ruleDispute } from "~/models/settlements/settlement-referee.server";
import { api, readJson } from "~/framework/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    const { outcome, winnerId } = parseProposalInput(await readJson(request));
    const { bet, settlement } = await ruleDispute({
      betId,
      userId: user.id,
      outcome,
      winnerId,
    });
    return Response.json({
      bet: toBetJson(bet),
      settlement: toSettlementJson(settlement, bet.currency),
    });
  });
}
