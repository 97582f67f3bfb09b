// GET /api/financial-history?startDate&endDate: from the ledger only.
import type { Route } from "./+types/financial-history";
import {
  listTransactions,
  summariesByCurrency,
  summaryIn,
  toSummaryJson,
  toTransactionJson,
} from "~/models/payments/ledger.server";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { rangeFromRequest } from "~/models/payments/finance-range-request.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const { range } = rangeFromRequest(request, user.createdAt);
    const tx = await listTransactions({
      userId: user.id,
      fromMs: range.fromMs,
      toMs: range.toMs,
    });
    return Response.json({
      transactions: tx.map(toTransactionJson).reverse(),
      // The person's default currency's; `summaries` one per currency they have money in.
      summary: toSummaryJson(summaryIn(tx, user.currency), user.currency),
      summaries: summariesByCurrency(tx).map((s) => ({
        currency: s.currency,
        ...toSummaryJson(s, s.currency),
      })),
      dateRange: {
        start: new Date(range.fromMs).toISOString(),
        end: new Date(range.toMs - 1).toISOString(),
      },
    });
  });
}
