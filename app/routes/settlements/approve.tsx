import { Link, data, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { BackToBet } from "~/components/back-to-bet";
import type { Route } from "./+types/approve";
import { FormAlert } from "~/components/forms";
import { NoticeCard } from "~/components/notice-card";
import { MoneySummary } from "~/components/settlement/money-summary";
import { approveSettlement } from "~/models/settlements/settlement.server";
import {
  approveScreenView,
  getSettlementView,
} from "~/models/settlements/settlement-view.server";
import { SETTLEMENT_NOT_FOUND } from "~/domain/settlement-text";
import {
  ProposalSentence,
  RespondByText,
  resolutionText,
} from "~/components/settlement-card";
import { readTimeZone } from "~/utils/time-zone.server";
import { formFailure } from "~/framework/page.server";
import { requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import { betIdFrom, loadBetOr404 } from "./load.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { WaitingNotice } from "~/components/waiting-notice";
import { loadMessages } from "~/routes/bets/bet-messages.server";
import { MessagesCard } from "~/components/bets/bet-messages";
import type { RouteTraits } from "~/domain/route-traits";

export const handle: RouteTraits = {
  offline: { label: "Approve a settlement" },
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const bet = await loadBetOr404(betId, user.id);
  const view = await getSettlementView({ betId, userId: user.id });
  if (!view)
    return data({ view: null, betId, messages: null }, { status: 404 });
  const timeZone = readTimeZone(request);
  return {
    betId,
    view: approveScreenView(view, user.id, timeZone),
    // What was said, above the buttons (docs/product-rules.md#messages).
    messages: await loadMessages(bet, user.id, timeZone),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  try {
    const { settlement } = await approveSettlement({ betId, userId: user.id });
    const loser = settlement.loserId === user.id;
    return redirectWithToast(
      loser
        ? href("/payment/:id", { id: String(betId) })
        : href("/settlements/:id/approve", { id: String(betId) }),
      {
        title: "Settlement approved",
        description: loser
          ? "The bet is settled. Please pay the winnings."
          : "The bet is settled.",
      },
    );
  } catch (error) {
    return formFailure(error, "Failed to approve settlement");
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function ApproveSettlement({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { view, betId } = loaderData;
  const busy = useNavigation().state === "submitting";
  if (!view) {
    return (
      <NoticeCard
        title={SETTLEMENT_NOT_FOUND}
        message="There is no settlement proposal for this bet."
      >
        <BackToBet betId={betId} />
      </NoticeCard>
    );
  }
  return (
    <div className="space-y-4">
      <section className="card space-y-2" aria-labelledby="settle-heading">
        <h1 id="settle-heading" className="text-xl font-bold">
          {view.settled ? "Settlement" : "Review settlement"}
        </h1>
        <p className="font-medium">{view.title}</p>
        <p className="text-sm text-slate-600">{view.description}</p>
        <ProposalSentence data={view} />
        {view.respondByLabel ? (
          <p className="text-sm text-slate-700">
            <RespondByText data={view} />
          </p>
        ) : null}
        {view.notes ? (
          <blockquote className="border-l-4 border-slate-200 pl-3 text-sm text-slate-700">
            {view.notes}
          </blockquote>
        ) : null}
      </section>
      {view.outcome === "void" ? (
        <p className="card text-sm">
          Calling it off ends the bet with no winner: no money moves and
          nobody's record changes.
        </p>
      ) : (
        <section className="card" aria-labelledby="money-heading">
          <h2 id="money-heading" className="mb-1 font-semibold">
            Money
          </h2>
          <MoneySummary
            amountCents={view.amountCents}
            currency={view.currency}
            feeCents={view.feeCents}
            netCents={view.netCents}
          />
          <p className="mt-2 text-sm text-slate-600">
            {view.winnerName} receives the net amount; {view.loserName} pays the
            bet amount.
          </p>
        </section>
      )}
      <section className="card" aria-labelledby="approvals-heading">
        <h2 id="approvals-heading" className="mb-2 font-semibold">
          Approvals
        </h2>
        <ul className="space-y-2 text-sm">
          {view.sides.map((side) => (
            <li
              key={side.role}
              className="flex items-center justify-between gap-2"
            >
              <span>
                {side.role}: {side.name}
                {side.proposer ? " (proposed)" : ""}
              </span>
              <span
                className={`badge ${side.approved ? "bg-brand-100 text-brand-800" : "bg-amber-100 text-amber-800"}`}
              >
                {side.approved
                  ? view.settled
                    ? "Approved"
                    : side.proposer
                      ? "Approved, waiting for the other side"
                      : "Approved"
                  : "Waiting for approval"}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <MessagesCard messages={loaderData.messages} betId={betId} />
      <FormAlert title={actionData?.title} message={actionData?.message} />
      {view.canRespond ? (
        <KeyedForm method="post" className="flex gap-2" aria-label="Approve">
          <button type="submit" className="btn-primary flex-1" disabled={busy}>
            {busy ? "Approving..." : "Approve"}
          </button>
          <Link
            to={href("/settlements/:id/reject", { id: String(betId) })}
            className="btn-danger"
          >
            Reject
          </Link>
        </KeyedForm>
      ) : null}
      {!view.settled && !view.canRespond ? (
        <WaitingNotice>Waiting for the other side&apos;s answer.</WaitingNotice>
      ) : null}
      {view.settled ? (
        <p role="status" className="card text-sm">
          {view.outcome === "void"
            ? `Called off (${resolutionText(view.resolution)}): no money moves.`
            : `Settled (${resolutionText(view.resolution)}): ${view.winnerName} won. ${view.paymentCompleted ? "Payment completed." : "Payment pending."}`}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {view.settled && view.viewerIsLoser && !view.paymentCompleted ? (
          <Link
            to={href("/payment/:id", { id: String(betId) })}
            className="btn-primary"
          >
            Pay Winnings
          </Link>
        ) : null}
        <BackToBet betId={betId} />
      </div>
    </div>
  );
}

export function meta() {
  return [{ title: "Settlement · Fairshake" }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const failed = () => LOAD_FAILED;
  return (
    <GeneralErrorBoundary
      error={error}
      statusHandlers={{}}
      defaultStatusHandler={failed}
      unexpected={LOAD_FAILED}
      Frame={NoticeCard}
    />
  );
}

const LOAD_FAILED = {
  title: "Error",
  message: "Failed to load settlement details. Please try again.",
};
