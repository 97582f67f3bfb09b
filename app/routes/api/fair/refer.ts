// POST /api/bets/{id}/refer: either party hands a rejected dispute to the
// referee (ruling 23): 200 bet with `dispute`.
import type { Route } from "./+types/refer";
import { BET_NOT_FOUND } from "~/models/bet-access.server";
import { toBetJson } from "~/routes/api/json";
import { referDispute } from "~/models/settlement-referee.server";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(BET_NOT_FOUND);
    await readJson(request);
    return Response.json(toBetJson(referDispute({ betId, userId: user.id })));
  });
}
