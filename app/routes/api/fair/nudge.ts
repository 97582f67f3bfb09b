// POST /api/bets/{id}/nudge: the winner reminds the loser (ruling 24): 204.
import type { Route } from "./+types/nudge";
import { BET_NOT_FOUND } from "~/models/bet-access.server";
import { nudgePayment } from "~/models/dues.server";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(BET_NOT_FOUND);
    await readJson(request);
    nudgePayment({ betId, userId: user.id });
    return new Response(null, { status: 204 });
  });
}
