// POST /api/bets/{id}/propose-settlement {winnerId, settlementNotes?}: 201.
import type { Route } from "./+types/propose";
import { parseProposalInput } from "~/models/settlements/settlement-input.server";
import { proposeSettlement } from "~/models/settlements/settlement.server";
import { betCurrency } from "~/models/bets/bet-access.server";
import { toSettlementJson } from "~/routes/api/json";
import { api, readJson } from "~/framework/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    const { winnerId, outcome, notes } = parseProposalInput(
      await readJson(request),
    );
    const settlement = await proposeSettlement({
      betId,
      userId: user.id,
      winnerId,
      outcome,
      notes,
    });
    return Response.json(
      toSettlementJson(settlement, await betCurrency(betId)),
      { status: 201 },
    );
  });
}
