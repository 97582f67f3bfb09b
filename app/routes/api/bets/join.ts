// POST /api/bets/{id}/join {version?}: one immediate transaction; 409 as
// joinRefusal answers (already in, the referee, not pending, past the
// deadline, full) or when changed (docs/product-rules.md#joining).
import type { Route } from "./+types/join";
import { joinBet } from "~/models/bets/bet.server";
import { parseVersion } from "~/models/bets/bet-input.server";
import { toBetJson } from "~/routes/api/json";
import { api, readJson } from "~/framework/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";
import { invalid } from "~/utils/errors";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    const body = await readJson(request);
    const version = parseVersion(body.version);
    if (version === "invalid")
      throw invalid("Invalid version", {
        version: ["Version must be the bet's updatedAt."],
      });
    const bet = await joinBet({ betId, userId: user.id, version });
    return Response.json(toBetJson(bet));
  });
}
