// POST /api/bets/{id}/refer: either party hands a rejected dispute to the
// referee (docs/product-rules.md#referee): 200 bet with `dispute`.
import type { Route } from "./+types/refer";
import { toBetJson } from "~/routes/api/json";
import { referDispute } from "~/models/settlements/settlement-referee.server";
import { api, readJson } from "~/framework/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    await readJson(request);
    return Response.json(
      toBetJson(await referDispute({ betId, userId: user.id })),
    );
  });
}
