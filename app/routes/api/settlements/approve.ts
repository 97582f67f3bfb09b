// POST /api/settlements/{id}/approve: 200 {bet, settlement}.
import type { Route } from "./+types/approve";
import { toBetJson, toSettlementJson } from "~/routes/api/json";
import { approveSettlement } from "~/models/settlements/settlement.server";
import { api, readJson } from "~/framework/api.server";
import { requireSettlementRoute } from "~/routes/api/bet-id.server";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireSettlementRoute({
      request,
      context,
      params,
    });
    await readJson(request);
    const { bet, settlement } = await approveSettlement({
      betId,
      userId: user.id,
    });
    return Response.json({
      bet: toBetJson(bet),
      settlement: toSettlementJson(settlement, bet.currency),
    });
  });
}
