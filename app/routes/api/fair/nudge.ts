// POST /api/bets/{id}/nudge: the winner reminds the loser (docs/product-rules.md#getting-paid): 204.
import type { Route } from "./+types/nudge";
import { nudgePayment } from "~/models/payments/dues.server";
import { api, readJson } from "~/framework/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    await readJson(request);
    await nudgePayment({ betId, userId: user.id });
    return new Response(null, { status: 204 });
  });
}
