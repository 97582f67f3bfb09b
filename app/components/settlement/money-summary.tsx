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
  const money = (minor: number) => formatMoney(minor, currency);
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      <Row label="Bet amount" value={money(amountCents)} />
      <Row
        label="Platform fee (2.5%, taken from the winner's payout)"
        value={`-${money(feeCents)}`}
      />
      <Row label="Winner receives" value={money(netCents)} />
      <Row
        label={youPay ? "You pay" : "Loser pays"}
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
  return (
    <NoticeCard title={title} message={message}>
      {live ? (
        <Link
          to={href("/settlements/:id/approve", { id: String(betId) })}
          className="btn-primary"
        >
          View the proposal
        </Link>
      ) : null}
      <BackToBet betId={betId} />
    </NoticeCard>
  );
}
