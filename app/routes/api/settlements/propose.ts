// POST /api/bets/{id}/propose-settlement {winnerId, settlementNotes?}: 201.
import type { Route } from "./+types/propose";
import { BET_NOT_FOUND } from "~/models/bet-access.server";
import { parseProposalInput } from "~/models/settlement-rules.server";
import { proposeSettlement } from "~/models/settlement.server";
import { toSettlementJson } from "~/routes/api/json";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(BET_NOT_FOUND);
    const { winnerId, outcome, notes } = parseProposalInput(
      await readJson(request),
    );
    const settlement = proposeSettlement({
      betId,
      userId: user.id,
      winnerId,
      outcome,
      notes,
    });
    return Response.json(toSettlementJson(settlement), { status: 201 });
  });
}
