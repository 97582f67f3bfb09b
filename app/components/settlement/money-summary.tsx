import { useLanguage, useT } from "~/components/i18n";
import { Link, href } from "react-router";
import { BackToBet } from "~/components/back-to-bet";
import { formatMoney, type Currency } from "~/domain/currency";
import { NoticeCard } from "~/components/notice-card";

// docs/product-rules.md#paying: the loser pays the bet amount; the fee comes out of the
// winner's payout. Shown the same on the approve and payment screens.
export function MoneySummary({
  amountCents,
  feeCents,
  netCents,
  currency = "USD",
  youPay = false,
}: {
  /** All three in the bet's currency's smallest unit. */
  amountCents: number;
  currency?: Currency;
  feeCents: number;
  netCents: number;
  /** The payment screen says "You pay" rather than "Loser pays". */
  youPay?: boolean;
}) {
  const t = useT();
  const language = useLanguage();
  const money = (minor: number) => formatMoney(minor, currency, language);
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      <Row label={t("money.betAmount")} value={money(amountCents)} />
      <Row label={t("money.fee")} value={`-${money(feeCents)}`} />
      <Row label={t("money.winnerReceives")} value={money(netCents)} />
      <Row
        label={youPay ? t("money.youPay") : t("money.loserPays")}
        value={money(amountCents)}
        strong
      />
    </dl>
  );
}

function Row({
  label,
  value,
  strong,
}: {
  label: string;
  value: string;
  strong?: boolean;
}) {
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <dt className={strong ? "font-semibold" : "text-slate-600"}>{label}</dt>
      <dd className={strong ? "text-base font-bold" : "font-medium"}>
        {value}
      </dd>
    </div>
  );
}

/**
 * Why a bet cannot be settled from this page now, with the way on: to the
 * live proposal if there is one, else back to the bet.
 */
export function SettlementBlocked({
  title,
  message,
  betId,
  live,
}: {
  title: string;
  message: string;
  betId: number;
  live: boolean;
}) {
  const t = useT();
  return (
    <NoticeCard title={title} message={message}>
      {live ? (
        <Link
          to={href("/settlements/:id/approve", { id: String(betId) })}
          className="btn-primary"
        >
          {t("settlement.viewProposal")}
        </Link>
      ) : null}
      <BackToBet betId={betId} />
    </NoticeCard>
  );
}
