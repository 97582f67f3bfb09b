// Client-safe shapes of the Finances tab and /financial-history: the route
// helper fills them from the ledger, components/finance/ renders them.
import type { FieldErrors } from "~/utils/errors";
import type { DateRange } from "./finance-presets";
import type { Currency } from "./currency";

export type FinanceSummary = {
  winningsCents: number;
  lossesCents: number;
  feesCents: number;
  netProfitCents: number;
  winsCount: number;
  lossesCount: number;
  winRate: number;
};

export type FinanceRow = {
  id: number;
  date: string;
  type: string;
  description: string;
  /** In `currency`'s smallest unit. */
  amountCents: number;
  currency: Currency;
  /** In words, the page's language. */
  status: string;
  /** The status as data ("completed"): the badge's colour. */
  tone: string;
  betId: number;
};

export type Finances = {
  ok: boolean;
  error: string | null;
  fieldErrors: FieldErrors;
  range: Pick<DateRange, "start" | "end" | "preset">;
  today: string;
  /** The person's own currency's. */
  summary: FinanceSummary;
  /** One per currency with money in the range: never added together. */
  summaries: (FinanceSummary & { currency: Currency })[];
  /** The person's currency: the summary shown when there is no money yet. */
  currency: Currency;
  rows: FinanceRow[];
  csvHref: string;
};
