// The settlement part of /bet/{id}: the live proposal (who proposed what,
// the notes, both approvals, the answer window's deadline, links to review
// and approve or reject). Once settled it can show the winner card and Pay
// Winnings for the loser of an unpaid bet, but /bet/{id} shows those itself
// (`showOutcome={false}`). Feed it `toSettlementCardData` of the settlement
// view the bet page's loader reads (`betPageFor`).
import { Rich, useLanguage, useT, type Translate } from "~/components/i18n";
import { Link, href } from "react-router";
import { formatDateTime } from "~/utils/dates";
import { formatMoney, type Currency } from "~/domain/currency";

export type SettlementCardData = {
  betId: number;
  settled: boolean;
  outcome: "winner" | "void";
  /** How it ended, once settled: agreed, conceded, timeout, referee. */
  resolution: string | null;
  /** "Nov 26, 3:00 PM" in the viewer's zone, while the proposal waits. */
  respondByLabel: string | null;
  respondBy: string | null;
  winnerName: string | null;
  loserName: string | null;
  proposerName: string;
  notes: string | null;
  creatorName: string;
  participantName: string;
  creatorApproved: boolean;
  participantApproved: boolean;
  paymentCompleted: boolean;
  canRespond: boolean;
  viewerIsLoser: boolean;
  netCents: number;
  feeCents: number;
  /** The bet's currency: fee and net are in it. */
  currency: Currency;
};

/** Builds the card's props from getSettlementView's answer. */
export function toSettlementCardData(
  view: {
    settlement: {
      betId: number;
      outcome: "winner" | "void";
      resolution: string | null;
      respondBy: Date | null;
      settledAt: Date | null;
      notes: string | null;
      creatorApproved: boolean;
      participantApproved: boolean;
      paymentStatus: string;
      loserId: number | null;
    };
    winnerName: string | null;
    loserName: string | null;
    proposerName: string;
    creator: { username: string };
    participant: { username: string };
    canRespond: boolean;
    feeCents: number;
    netCents: number;
    bet?: { currency: Currency };
  },
  viewerId: number,
  timeZone = "UTC",
  locale = "en-US",
): SettlementCardData {
  const s = view.settlement;
  return {
    betId: s.betId,
    settled: s.settledAt !== null,
    outcome: s.outcome,
    resolution: s.resolution,
    respondBy: s.respondBy ? s.respondBy.toISOString() : null,
    respondByLabel:
      s.respondBy && s.settledAt === null
        ? formatDateTime(s.respondBy, timeZone, locale)
        : null,
    winnerName: view.winnerName,
    loserName: view.loserName,
    proposerName: view.proposerName,
    notes: s.notes,
    creatorName: view.creator.username,
    participantName: view.participant.username,
    creatorApproved: s.creatorApproved,
    participantApproved: s.participantApproved,
    paymentCompleted: s.paymentStatus === "completed",
    canRespond: view.canRespond,
    viewerIsLoser: s.loserId === viewerId,
    netCents: view.netCents,
    feeCents: view.feeCents,
    currency: view.bet?.currency ?? "USD",
  };
}

function Approval({ name, approved }: { name: string; approved: boolean }) {
  const t = useT();
  return (
    <li className="flex items-center justify-between gap-2">
      <span>{name}</span>
      <span
        className={`badge ${approved ? "bg-brand-100 text-brand-800" : "bg-amber-100 text-amber-800"}`}
      >
        {approved ? t("card.approved") : t("card.waiting")}
      </span>
    </li>
  );
}

export function SettlementCard({
  data,
  demoPayment = false,
  showOutcome = true,
}: {
  data: SettlementCardData;
  /**
   * Also show a 'Demo Payment Process' link beside Pay Winnings. No page
   * passes it today: /bet/{id} shows its demo link itself (docs/product-rules.md#bets).
   */
  demoPayment?: boolean;
  /**
   * Whether a settled bet shows the winner card and Pay Winnings here; turn
   * it off where the page already shows them.
   */
  showOutcome?: boolean;
}) {
  const t = useT();
  const language = useLanguage();
  if (data.settled) {
    if (!showOutcome) return null;
    if (data.outcome === "void")
      return (
        <section className="card space-y-2" aria-labelledby="winner-heading">
          <h2 id="winner-heading" className="font-semibold">
            {t("card.calledOff")}
          </h2>
          <p className="text-sm text-slate-700">
            {t("card.noWinner", {
              resolution: resolutionText(data.resolution, t),
            })}
          </p>
        </section>
      );
    return (
      <section className="card space-y-3" aria-labelledby="winner-heading">
        <h2 id="winner-heading" className="font-semibold">
          {t("card.winner", { name: data.winnerName ?? "" })}
        </h2>
        <p className="text-sm text-slate-700">
          {t("card.receives", {
            name: data.winnerName ?? "",
            net: formatMoney(data.netCents, data.currency, language),
            fee: formatMoney(data.feeCents, data.currency, language),
          })}
        </p>
        <p className="text-sm">
          {t("card.payment")}{" "}
          <span
            className={`badge ${data.paymentCompleted ? "bg-brand-100 text-brand-800" : "bg-amber-100 text-amber-800"}`}
          >
            {data.paymentCompleted ? t("card.completed") : t("card.pending")}
          </span>
        </p>
        {data.viewerIsLoser && !data.paymentCompleted ? (
          <div className="flex flex-wrap gap-2">
            <Link
              to={href("/payment/:id", { id: String(data.betId) })}
              className="btn-primary"
            >
              {t("bet.pay")}
            </Link>
            {demoPayment ? (
              <Link
                to={href("/payment/:id", { id: String(data.betId) })}
                className="btn-secondary"
              >
                {t("card.demoPayment")}
              </Link>
            ) : null}
          </div>
        ) : null}
      </section>
    );
  }
  return (
    <section className="card space-y-3" aria-labelledby="proposal-heading">
      <h2 id="proposal-heading" className="font-semibold">
        {t("card.proposal")}
      </h2>
      <ProposalSentence data={data} />
      {data.respondByLabel ? (
        <p className="text-sm text-slate-700">
          <RespondByText data={data} />
        </p>
      ) : null}
      {data.notes ? (
        <blockquote className="border-l-4 border-slate-200 pl-3 text-sm text-slate-700">
          {data.notes}
        </blockquote>
      ) : null}
      <ul className="space-y-1 text-sm" aria-label={t("card.approvals")}>
        <Approval name={data.creatorName} approved={data.creatorApproved} />
        <Approval
          name={data.participantName}
          approved={data.participantApproved}
        />
      </ul>
      {data.canRespond ? (
        <div className="flex flex-wrap gap-2">
          <Link
            to={href("/settlements/:id/approve", { id: String(data.betId) })}
            className="btn-primary"
          >
            {t("card.review")}
          </Link>
          <Link
            to={href("/settlements/:id/reject", { id: String(data.betId) })}
            className="btn-secondary"
          >
            {t("card.reject")}
          </Link>
        </div>
      ) : null}
    </section>
  );
}

export function resolutionText(resolution: string | null, t: Translate) {
  switch (resolution) {
    case "conceded":
      return t("resolution.conceded");
    case "timeout":
      return t("resolution.timeout");
    case "referee":
      return t("resolution.referee");
    default:
      return t("resolution.agreed");
  }
}

/** "alice proposed bob as the winner." or "… calling it off (no winner)." */
export function ProposalSentence({
  data,
}: {
  data: Pick<SettlementCardData, "proposerName" | "winnerName" | "outcome">;
}) {
  const t = useT();
  const values = {
    proposer: data.proposerName ?? "",
    winner: data.winnerName ?? "",
  };
  return (
    <p className="text-sm">
      <Rich
        text={t(
          data.outcome === "void" ? "card.proposedVoid" : "card.proposedWinner",
          values,
        )}
        tags={{ b: (inner) => <strong>{inner}</strong> }}
      />
    </p>
  );
}

/** docs/product-rules.md#answer-windows: the deadline, wherever a live proposal is shown. */
export function RespondByText({
  data,
}: {
  data: Pick<SettlementCardData, "respondBy" | "respondByLabel" | "canRespond">;
}) {
  const t = useT();
  if (!data.respondByLabel || !data.respondBy) return null;
  const respondBy = data.respondBy;
  return (
    <Rich
      text={t(data.canRespond ? "card.autoYou" : "card.autoOther", {
        when: data.respondByLabel,
      })}
      tags={{ t: (inner) => <time dateTime={respondBy}>{inner}</time> }}
    />
  );
}
