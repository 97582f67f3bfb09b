// Client-safe shapes of the Finances tab and /financial-history: the route
// helper fills them from the ledger, components/finance/ renders them.
import type { FieldErrors } from "~/utils/errors";
import type { DateRange } from "./finance-presets";

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
  amountCents: number;
  status: string;
  betId: number;
};

export type Finances = {
  ok: boolean;
  error: string | null;
  fieldErrors: FieldErrors;
  range: Pick<DateRange, "start" | "end" | "preset">;
  today: string;
  summary: FinanceSummary;
  rows: FinanceRow[];
  csvHref: string;
};
