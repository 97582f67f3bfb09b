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
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";
import { intlLocale, type Language } from "~/domain/language";
import type { Transaction } from "~/models/payments/ledger.server";

type T = ReturnType<typeof serverT>;
const DESCRIBE = {
  payment: (t: T, title: string) => t("finances.descPayment", { title }),
  payout: (t: T, title: string) => t("finances.descPayout", { title }),
  fee: (t: T, title: string) => t("finances.descFee", { title }),
};
const TYPE = {
  payment: "finances.typePayment",
  payout: "finances.typePayout",
  fee: "finances.typeFee",
} as const;

/** A transaction's day in the person's zone, written the page's language's way. */
function dayLabel(at: Date, timeZone: string, language: Language) {
  if (language === "en") return zonedDayLabel(at, timeZone);
  return new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: "medium",
    timeZone,
  }).format(at);
}

const rowOf =
  (t: T, timeZone: string, language: Language) => (tx: Transaction) => ({
    id: tx.id,
    date: dayLabel(tx.createdAt, timeZone, language),
    type: t(TYPE[tx.type]),
    description: DESCRIBE[tx.type](t, tx.title),
    amountCents: tx.amountCents,
    currency: tx.currency,
    status: t("finances.statusCompleted"),
    tone: tx.status,
    betId: tx.betId,
  });

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
  user: {
    id: number;
    createdAt: Date;
    currency: Currency;
    language: string | null;
  },
): Promise<{ finances: Finances; status: number }> {
  const url = new URL(request.url);
  const timeZone = readTimeZone(request);
  const today = todayIn(timeZone);
  const language = pageLanguage(request, user.language);
  const t = serverT(language);
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
        rows: tx.map(rowOf(t, timeZone, language)).reverse(),
        csvHref: `/api/financial-history.csv?${csv}`,
      },
    };
  } catch (error) {
    const failure = pageFailureOr(error, {
      message: t("finances.loadFailed"),
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
