// GET /api/settlements/{id} (id = bet id, ruling 7): the live settlement.
import type { Route } from "./+types/settlement";
import { SETTLEMENT_NOT_FOUND } from "~/models/settlement-rules.server";
import { getSettlement } from "~/models/settlement-view.server";
import { toSettlementJson } from "~/routes/api/json";
import { api, parseId } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function loader({ request, params }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(SETTLEMENT_NOT_FOUND);
    return Response.json(
      toSettlementJson(getSettlement({ betId, userId: user.id })),
    );
  });
}
