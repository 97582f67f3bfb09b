// The Finances tab and /financial-history share this loader helper: the
// range from the URL (whole days in the user's zone), then transactions and
// a summary read from the ledger only.
import { format } from "date-fns";
import { getUserById } from "~/models/user.server";
import { listTransactions, summarize } from "~/models/ledger.server";
import type { Finances, FinanceSummary } from "~/domain/finances";
import { isDomainError } from "~/utils/errors";
import {
  DEFAULT_PRESET,
  presetRange,
  resolveRange,
  todayIn,
} from "~/utils/date-range";
import { utcToZonedParts } from "~/utils/dates";
import { readTimeZone } from "~/utils/time-zone.server";

/** 'MMM d, yyyy' of an instant as a day in `timeZone`. */
export function zonedDayLabel(instant: Date | number, timeZone: string) {
  const [y, m, d] = utcToZonedParts(Number(instant), timeZone)
    .date.split("-")
    .map(Number);
  return format(new Date(y!, m! - 1, d!), "MMM d, yyyy");
}

export function rangeFromRequest(request: Request, userId: number) {
  const url = new URL(request.url);
  const timeZone = readTimeZone(request);
  const user = getUserById(userId);
  const allStart = user
    ? utcToZonedParts(user.createdAt.getTime(), timeZone).date
    : todayIn(timeZone);
  const range = resolveRange({
    startDate: url.searchParams.get("startDate"),
    endDate: url.searchParams.get("endDate"),
    preset: url.searchParams.get("preset"),
    timeZone,
    allStart,
  });
  return { range, timeZone };
}

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
export function loadFinances(
  request: Request,
  userId: number,
): { finances: Finances; status: number } {
  const url = new URL(request.url);
  const timeZone = readTimeZone(request);
  const today = todayIn(timeZone);
  try {
    const { range } = rangeFromRequest(request, userId);
    const tx = listTransactions({
      userId,
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
        summary: summarize(tx),
        rows: tx
          .map((t) => ({
            id: t.id,
            date: zonedDayLabel(t.createdAt, timeZone),
            type: t.type,
            description: t.description,
            amountCents: t.amountCents,
            status: t.status,
            betId: t.betId,
          }))
          .reverse(),
        csvHref: `/api/financial-history.csv?${csv}`,
      },
    };
  } catch (error) {
    const fallback = presetRange(DEFAULT_PRESET, today, today);
    const known = isDomainError(error);
    if (!known) console.error(error);
    return {
      status: known ? error.status : 500,
      finances: {
        ok: false,
        error: known ? error.message : "Failed to fetch financial data",
        fieldErrors: known ? (error.fieldErrors ?? {}) : {},
        range: {
          start: url.searchParams.get("startDate") ?? fallback.start,
          end: url.searchParams.get("endDate") ?? fallback.end,
          preset: null,
        },
        today,
        summary: EMPTY,
        rows: [],
        csvHref: "/api/financial-history.csv",
      },
    };
  }
}
