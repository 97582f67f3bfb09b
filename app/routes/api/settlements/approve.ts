// POST /api/settlements/{id}/approve: 200 {bet, settlement}.
import type { Route } from "./+types/approve";
import { toBetJson, toSettlementJson } from "~/routes/api/json";
import { SETTLEMENT_NOT_FOUND } from "~/models/settlement-rules.server";
import { approveSettlement } from "~/models/settlement.server";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(SETTLEMENT_NOT_FOUND);
    await readJson(request);
    const { bet, settlement } = approveSettlement({ betId, userId: user.id });
    return Response.json({
      bet: toBetJson(bet),
      settlement: toSettlementJson(settlement),
    });
  });
}
