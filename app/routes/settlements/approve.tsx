import { metaT, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { intlLocale } from "~/domain/language";
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
import type { MessageKey } from "~/locales/keys";

export const handle: RouteTraits<MessageKey> = {
  messages: [
    "approve",
    "bet",
    "common",
    "money",
    "settlement",
    "card",
    "resolution",
    "messages",
  ],
  offline: { label: "kept.approveSettlement" },
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const bet = await loadBetOr404(betId, user.id);
  const view = await getSettlementView({ betId, userId: user.id });
  if (!view)
    return data({ view: null, betId, messages: null }, { status: 404 });
  const timeZone = readTimeZone(request);
  const locale = intlLocale(pageLanguage(request, user.language));
  return {
    betId,
    view: approveScreenView(view, user.id, timeZone, locale),
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
    const t = serverT(pageLanguage(request, user.language));
    return redirectWithToast(
      loser
        ? href("/payment/:id", { id: String(betId) })
        : href("/settlements/:id/approve", { id: String(betId) }),
      {
        title: t("approve.toastTitle"),
        description: loser ? t("approve.toastPay") : t("approve.toastSettled"),
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
  const t = useT();
  if (!view) {
    return (
      <NoticeCard title={t("approve.notFound")} message={t("approve.none")}>
        <BackToBet betId={betId} />
      </NoticeCard>
    );
  }
  return (
    <div className="space-y-4">
      <section className="card space-y-2" aria-labelledby="settle-heading">
        <h1 id="settle-heading" className="text-xl font-bold">
          {view.settled ? t("approve.settlement") : t("approve.review")}
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
        <p className="card text-sm">{t("approve.voidExplained")}</p>
      ) : (
        <section className="card" aria-labelledby="money-heading">
          <h2 id="money-heading" className="mb-1 font-semibold">
            {t("approve.money")}
          </h2>
          <MoneySummary
            amountCents={view.amountCents}
            currency={view.currency}
            feeCents={view.feeCents}
            netCents={view.netCents}
          />
          <p className="mt-2 text-sm text-slate-600">
            {t("approve.moneyText", {
              winner: view.winnerName ?? "",
              loser: view.loserName ?? "",
            })}
          </p>
        </section>
      )}
      <section className="card" aria-labelledby="approvals-heading">
        <h2 id="approvals-heading" className="mb-2 font-semibold">
          {t("approve.approvals")}
        </h2>
        <ul className="space-y-2 text-sm">
          {view.sides.map((side) => (
            <li
              key={side.role}
              className="flex items-center justify-between gap-2"
            >
              <span>
                {t("approve.side", {
                  role:
                    side.role === "Creator"
                      ? t("approve.creator")
                      : t("approve.participant"),
                  name: side.name ?? "",
                })}
                {side.proposer ? t("approve.proposed") : ""}
              </span>
              <span
                className={`badge ${side.approved ? "bg-brand-100 text-brand-800" : "bg-amber-100 text-amber-800"}`}
              >
                {side.approved
                  ? view.settled
                    ? t("approve.approved")
                    : side.proposer
                      ? t("approve.approvedWaiting")
                      : t("approve.approved")
                  : t("approve.waitingApproval")}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <MessagesCard messages={loaderData.messages} betId={betId} />
      <FormAlert title={actionData?.title} message={actionData?.message} />
      {view.canRespond ? (
        <KeyedForm
          method="post"
          className="flex gap-2"
          aria-label={t("approve.formLabel")}
        >
          <button type="submit" className="btn-primary flex-1" disabled={busy}>
            {busy ? t("approve.approving") : t("approve.approve")}
          </button>
          <Link
            to={href("/settlements/:id/reject", { id: String(betId) })}
            className="btn-danger"
          >
            {t("approve.reject")}
          </Link>
        </KeyedForm>
      ) : null}
      {!view.settled && !view.canRespond ? (
        <WaitingNotice>{t("bet.waitingAnswer")}</WaitingNotice>
      ) : null}
      {view.settled ? (
        <p role="status" className="card text-sm">
          {view.outcome === "void"
            ? t("approve.calledOff", {
                resolution: resolutionText(view.resolution, t),
              })
            : t("approve.settledText", {
                resolution: resolutionText(view.resolution, t),
                winner: view.winnerName ?? "",
                payment: view.paymentCompleted
                  ? t("approve.paymentCompleted")
                  : t("approve.paymentPending"),
              })}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {view.settled && view.viewerIsLoser && !view.paymentCompleted ? (
          <Link
            to={href("/payment/:id", { id: String(betId) })}
            className="btn-primary"
          >
            {t("bet.pay")}
          </Link>
        ) : null}
        <BackToBet betId={betId} />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("approve.pageTitle") },
];

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const t = useT();
  const failed = {
    title: t("errors.title"),
    message: t("errors.settlementLoadFailed"),
  };
  return (
    <GeneralErrorBoundary
      error={error}
      statusHandlers={{}}
      defaultStatusHandler={() => failed}
      unexpected={failed}
      Frame={NoticeCard}
    />
  );
}
