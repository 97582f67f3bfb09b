import { useLanguage, useT } from "~/components/i18n";
import { Link, href } from "react-router";
import { STATUS_CARD, StatusBadge } from "./status-badge";
import type { BetStatus } from "~/domain/bet";
import { formatMoney, type Currency } from "~/domain/currency";

export type BetCardData = {
  id: number;
  title: string;
  amountCents: number;
  /** The bet's; US dollars when a caller names none. */
  currency?: Currency;
  status: BetStatus;
  participantCount: number;
  deadline: number;
  deadlineLabel: string;
  won: boolean | null;
  canEdit: boolean;
};

/** A My Bets card (docs/product-rules.md#screens): the whole card opens the bet. */
export function BetCard({ bet, now }: { bet: BetCardData; now: number }) {
  const t = useT();
  const language = useLanguage();
  return (
    <li className={`card relative space-y-2 ${STATUS_CARD[bet.status]}`}>
      <div className="flex items-start justify-between gap-2">
        <h3 className="break-words font-semibold">
          <Link
            to={href("/bet/:id", { id: String(bet.id) })}
            className="after:absolute after:inset-0 after:content-['']"
          >
            {bet.title}
          </Link>
        </h3>
        <StatusBadge status={bet.status} />
      </div>
      <p className="flex flex-wrap gap-x-3 text-sm text-slate-700">
        <span className="font-semibold">
          {formatMoney(bet.amountCents, bet.currency ?? "USD", language, {
            whole: true,
          })}
        </span>
        <span>
          {t("betCard.participants", { count: bet.participantCount })}
        </span>
        <span>
          {bet.deadline <= now
            ? t("betCard.deadlinePassed")
            : t("betCard.ends", { when: bet.deadlineLabel })}
        </span>
      </p>
      {bet.won === true ? (
        <p className="font-semibold text-emerald-700">{t("betCard.won")}</p>
      ) : bet.won === false ? (
        <p className="font-semibold text-red-700">{t("betCard.lost")}</p>
      ) : null}
      {bet.canEdit ? (
        <div className="relative z-10 flex gap-2">
          <Link
            to={href("/bet/:id/edit", { id: String(bet.id) })}
            className="btn-secondary"
          >
            {t("betCard.edit")}
          </Link>
          <Link
            to={`${href("/bet/:id/edit", { id: String(bet.id) })}?confirm=delete`}
            className="btn-secondary text-red-700"
          >
            {t("betCard.delete")}
          </Link>
        </div>
      ) : null}
    </li>
  );
}
