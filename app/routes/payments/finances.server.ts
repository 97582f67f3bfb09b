// The Finances tab and /financial-history share this loader helper: the
// range from the URL (whole days in the user's zone, the same helper as the
// /api door's), then transactions and a summary read from the ledger only.
import {
  listTransactions,
  summariesByCurrency,
  summaryIn,
} from "~/models/payments/ledger.server";
import type { Currency } from "~/domain/currency";
import type { Finances, FinanceSummary } from "~/domain/finances";
import { presetRange, todayIn } from "~/models/payments/finance-range.server";
import { DEFAULT_PRESET } from "~/domain/finance-presets";
import { rangeFromRequest } from "~/models/payments/finance-range-request.server";
import { zonedDayLabel } from "~/utils/zoned-time.server";
import { pageFailureOr } from "~/framework/page.server";
import { readTimeZone } from "~/utils/time-zone.server";

const EMPTY: FinanceSummary = {
  winningsCents: 0,
  lossesCents: 0,
  feesCents: 0,
  netProfitCents: 0,
  winsCount: 0,
  lossesCount: 0,
  winRate: 0,
};

/** Never throws for bad input: the page shows the message and the form. */
export async function loadFinances(
  request: Request,
  user: { id: number; createdAt: Date; currency: Currency },
): Promise<{ finances: Finances; status: number }> {
  const url = new URL(request.url);
  const timeZone = readTimeZone(request);
  const today = todayIn(timeZone);
  try {
    const { range } = rangeFromRequest(request, user.createdAt);
    const tx = await listTransactions({
      userId: user.id,
      fromMs: range.fromMs,
      toMs: range.toMs,
    });
    const csv = new URLSearchParams({
      startDate: range.start,
      endDate: range.end,
    });
    return {
      status: 200,
      finances: {
        ok: true,
        error: null,
        fieldErrors: {},
        range: { start: range.start, end: range.end, preset: range.preset },
        today,
        summary: summaryIn(tx, user.currency),
        summaries: summariesByCurrency(tx),
        currency: user.currency,
        rows: tx
          .map((t) => ({
            id: t.id,
            date: zonedDayLabel(t.createdAt, timeZone),
            type: t.type,
            description: t.description,
            amountCents: t.amountCents,
            currency: t.currency,
            status: t.status,
            betId: t.betId,
          }))
          .reverse(),
        csvHref: `/api/financial-history.csv?${csv}`,
      },
    };
  } catch (error) {
    const failure = pageFailureOr(error, {
      message: "Failed to fetch financial data",
    });
    const fallback = presetRange(DEFAULT_PRESET, today, today);
    return {
      status: failure.status,
      finances: {
        ok: false,
        error: failure.message,
        fieldErrors: failure.fieldErrors ?? {},
        range: {
          start: url.searchParams.get("startDate") ?? fallback.start,
          end: url.searchParams.get("endDate") ?? fallback.end,
          preset: null,
        },
        today,
        summary: EMPTY,
        summaries: [],
        currency: user.currency,
        rows: [],
        csvHref: "/api/financial-history.csv",
      },
    };
  }
}
