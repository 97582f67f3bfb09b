// GET /api/settlements/{id} (id = bet id, docs/product-rules.md#settlement): the live settlement.
import type { Route } from "./+types/settlement";
import { getSettlement } from "~/models/settlements/settlement-view.server";
import { betCurrency } from "~/models/bets/bet-access.server";
import { toSettlementJson } from "~/routes/api/json";
import { api } from "~/framework/api.server";
import { requireSettlementRoute } from "~/routes/api/bet-id.server";

export function loader({ request, params, context }: Route.LoaderArgs) {
  return api(async () => {
    const { user, betId } = await requireSettlementRoute({
      request,
      context,
      params,
    });
    return Response.json(
      toSettlementJson(
        await getSettlement({ betId, userId: user.id }),
        await betCurrency(betId),
      ),
    );
  });
}
