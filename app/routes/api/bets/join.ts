// POST /api/bets/{id}/join {version?}: one immediate transaction; 409 when
// full, already in, not pending, past the deadline or changed (ruling 9).
import type { Route } from "./+types/join";
import { BET_NOT_FOUND } from "~/models/bet-access.server";
import { joinBet } from "~/models/bet.server";
import { parseVersion } from "~/models/bet-input.server";
import { toBetJson } from "~/routes/api/json";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { invalid, notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(BET_NOT_FOUND);
    const body = await readJson(request);
    const version = parseVersion(body.version);
    if (version === "invalid")
      throw invalid("Invalid version", {
        version: ["Version must be the bet's updatedAt."],
      });
    const bet = joinBet({ betId, userId: user.id, version });
    return Response.json(toBetJson(bet));
  });
}
