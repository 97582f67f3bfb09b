// POST /api/settlements/{id}/reject {rejectionReason?}: 204, either party.
import type { Route } from "./+types/reject";
import { parseRejectionInput } from "~/models/settlements/settlement-input.server";
import { rejectSettlement } from "~/models/settlements/settlement.server";
import { api, readJson } from "~/framework/api.server";
import { requireSettlementRoute } from "~/routes/api/bet-id.server";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireSettlementRoute({
      request,
      context,
      params,
    });
    const { reason } = parseRejectionInput(await readJson(request));
    await rejectSettlement({ betId, userId: user.id, reason });
    return new Response(null, { status: 204 });
  });
}
