// POST /api/bets/{id}/record-payment {paymentIntentId, amount}: recorded only
// after the provider confirms; the same intent again is 200 with no effect.
import { z } from "zod";
import type { Route } from "./+types/record";
import { payBet } from "~/models/payments/pay-bet.server";
import { minorPerUnit } from "~/domain/currency";
import { betCurrency } from "~/models/bets/bet-access.server";
import { toSettlementJson } from "~/routes/api/json";
import { api, parseJson } from "~/framework/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";

const Body = z.object({
  paymentIntentId: z
    .string({ error: "paymentIntentId is required." })
    .trim()
    .min(1, "paymentIntentId is required.")
    .max(255, "paymentIntentId is too long."),
  amount: z
    .number({ error: "Amount must be a positive number." })
    .positive("Amount must be a positive number.")
    .optional(),
});

export function action({ request, params, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    const body = await parseJson(request, Body);
    const { settlement } = await payBet({
      betId,
      userId: user.id,
      by: {
        kind: "intent",
        intentId: body.paymentIntentId,
        // A number in the bet's currency (12.5 euros, 1001 yen).
        amountCents:
          body.amount === undefined
            ? undefined
            : Math.round(body.amount * minorPerUnit(await betCurrency(betId))),
      },
    });
    return Response.json({
      settlement: toSettlementJson(settlement, await betCurrency(betId)),
    });
  });
}
