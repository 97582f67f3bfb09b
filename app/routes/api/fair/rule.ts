// POST /api/bets/{id}/rule {winnerId} or {outcome: "void"}: the referee's
// ruling settles at once (ruling 23): 200 {bet, settlement}.
import type { Route } from "./+types/rule";
import { BET_NOT_FOUND } from "~/models/bet-access.server";
import { toBetJson, toSettlementJson } from "~/routes/api/json";
import { parseProposalInput } from "~/models/settlement-rules.server";
import { ruleDispute } from "~/models/settlement-referee.server";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(BET_NOT_FOUND);
    const { outcome, winnerId } = parseProposalInput(await readJson(request));
    const { bet, settlement } = ruleDispute({
      betId,
      userId: user.id,
      outcome,
      winnerId,
    });
    return Response.json({
      bet: toBetJson(bet),
      settlement: toSettlementJson(settlement),
    });
  });
}
