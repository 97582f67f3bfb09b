import type { BetStatus } from "~/domain/bet";
import { useT } from "../i18n";

export const STATUS_TONE: Record<BetStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  active: "bg-sky-100 text-sky-900",
  settled: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-slate-200 text-slate-700",
};

/** Card accents follow the status (My Bets, docs/product-rules.md#screens). */
export const STATUS_CARD: Record<BetStatus, string> = {
  pending: "border-l-4 border-l-amber-400",
  active: "border-l-4 border-l-sky-500",
  settled: "border-l-4 border-l-emerald-500",
  cancelled: "border-l-4 border-l-slate-400",
};

export function StatusBadge({ status }: { status: BetStatus }) {
  const t = useT();
  return (
    <span className={`badge ${STATUS_TONE[status]}`}>
      {t(`status.${status}`)}
    </span>
  );
}
