// GET /api/financial-history.csv?startDate&endDate: the same range as CSV,
// formula-looking cells escaped (docs/product-rules.md#finances).
import type { Route } from "./+types/financial-history-csv";
import {
  listTransactions,
  transactionsToCsv,
} from "~/models/payments/ledger.server";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { rangeFromRequest } from "~/models/payments/finance-range-request.server";
import { zonedDayLabel } from "~/utils/zoned-time.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const { range, timeZone } = rangeFromRequest(request, user.createdAt);
    const tx = await listTransactions({
      userId: user.id,
      fromMs: range.fromMs,
      toMs: range.toMs,
    });
    const csv = transactionsToCsv(tx, (d) => zonedDayLabel(d, timeZone));
    return new Response(csv, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="fairshake-${range.start}-to-${range.end}.csv"`,
        "Cache-Control": "private, no-store",
      },
    });
  });
}
