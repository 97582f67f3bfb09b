import { Link, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { metaT, useLanguage, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import type { Route } from "./+types/bet-detail";
import { CopyButton, SharePanel } from "~/components/bets/share-panel";
import { StatusBadge } from "~/components/bets/status-badge";
import {
  BetOutcomeNotices,
  DisputeNotice,
  FairActions,
} from "~/components/bets/bet-fair-panel";
import { SettlementCard } from "~/components/settlement-card";
import { FormAlert } from "~/components/forms";
import { fairAction } from "./bet-fair.server";
import { joinFromForm } from "./join-action.server";
import { isMessageIntent, messageAction } from "./bet-messages.server";
import { BetMessages } from "~/components/bets/bet-messages";
import { betIdOrNotFound } from "~/models/bets/bet-id.server";
import { invalid } from "~/utils/errors";
import { betPageData } from "./bet-page.server";
import { formFailure } from "~/framework/page.server";
import { initials } from "~/utils/initials";
import { formatMoney, splitMinor } from "~/domain/currency";
import { requireUser } from "~/models/accounts/session.server";
import { readPageForm } from "~/framework/upload.server";
import {
  cardFrame,
  GeneralErrorBoundary,
  HomeLink,
} from "~/components/error-boundary";
import { WaitingNotice } from "~/components/waiting-notice";
import { BET_PAGE_TRAITS } from "./bet-page-traits";

export const handle = BET_PAGE_TRAITS;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  return betPageData(
    request,
    user.id,
    params.id,
    pageLanguage(request, user.language),
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const { form, files } = await readPageForm(request);
  const intent = form.get("intent");
  if (intent === "nudge" || intent === "refer")
    return fairAction(intent, params.id, user.id);
  if (isMessageIntent(intent))
    return messageAction(intent, params.id, user.id, form, files);
  if (intent !== "join") return formFailure(invalid("Unknown action"), "Error");
  return joinFromForm({
    userId: user.id,
    form,
    findBet: async () => betIdOrNotFound(params.id),
  });
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function BetDetail({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet, me, isCreator, isParticipant, canEdit, canJoin, links } =
    loaderData;
  const navigation = useNavigation();
  const t = useT();
  const language = useLanguage();
  const money = (minor: number) => formatMoney(minor, bet.currency, language);
  const joining =
    navigation.state !== "idle" &&
    navigation.formData?.get("intent") === "join";
  const winner = bet.participants.find((p) => p.id === bet.winnerId);
  // A refused message shows beside its form, not at the top of the page.
  const messageFailure =
    actionData && "intent" in actionData && actionData.intent === "message"
      ? { ...actionData, intent: "message" }
      : null;
  return (
    <article className="space-y-4" aria-labelledby="bet-title">
      <section className="card space-y-3">
        <div className="flex items-start justify-between gap-2">
          <h1 id="bet-title" className="break-words text-xl font-bold">
            {bet.title}
          </h1>
          <StatusBadge status={bet.status} />
        </div>
        <p className="whitespace-pre-wrap break-words text-slate-700">
          {bet.description}
        </p>
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <dt className="text-slate-600">{t("bet.amount")}</dt>
          <dd className="text-right text-lg font-bold">
            {money(bet.amountCents)}
          </dd>
          {/* docs/product-rules.md#paying: the fee in the bet's own currency's smallest unit. */}
          <dt className="text-slate-600">{t("bet.fee")}</dt>
          <dd className="text-right" data-testid="bet-fee">
            {money(splitMinor(bet.amountCents).feeMinor)}
          </dd>
          <dt className="text-slate-600">{t("bet.winnerReceives")}</dt>
          <dd className="text-right" data-testid="bet-payout">
            {money(splitMinor(bet.amountCents).netMinor)}
          </dd>
          <dt className="text-slate-600">{t("bet.deadline")}</dt>
          <dd className="text-right">
            <time dateTime={bet.deadline}>{bet.deadlineLabel}</time>
          </dd>
          <dt className="text-slate-600">{t("bet.created")}</dt>
          <dd className="text-right">{bet.created}</dd>
          <dt className="text-slate-600">{t("bet.visibility")}</dt>
          <dd className="text-right">
            {bet.visibility === "public" ? t("bet.public") : t("bet.private")}
          </dd>
          {loaderData.referee ? (
            <>
              <dt className="text-slate-600">{t("bet.referee")}</dt>
              <dd className="text-right">
                {loaderData.referee.name}
                {loaderData.referee.isMe ? t("bet.refereeYou") : ""}
              </dd>
            </>
          ) : null}
          <dt className="text-slate-600">{t("bet.creatorPays")}</dt>
          <dd className="text-right text-xs">{loaderData.creatorRecord}</dd>
        </dl>
        <div className="flex items-center gap-2">
          <ul className="flex -space-x-2" aria-label={t("bet.participants")}>
            {bet.participants.map((p) => (
              <li
                key={p.id}
                title={p.username}
                className="inline-flex size-9 items-center justify-center rounded-full border-2 border-white bg-brand-600 text-xs font-bold text-white"
              >
                <span aria-hidden="true">{initials(p.username)}</span>
                <span className="sr-only">{p.username}</span>
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-700">
            {t("bet.participantCount", { count: bet.participants.length })}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 rounded-lg bg-slate-50 p-3">
          <span className="text-sm text-slate-600">{t("bet.code")}</span>
          <output
            className="select-all font-mono text-lg font-bold tracking-widest"
            aria-label={t("bet.code")}
          >
            {bet.code}
          </output>
          <CopyButton text={bet.code} label={t("bet.copyCode")} />
        </div>
      </section>

      {winner ? (
        <section className="card border-emerald-300 bg-emerald-50">
          <h2 className="font-semibold">{t("bet.winner")}</h2>
          <p className="text-lg">
            {winner.id === me
              ? t("bet.youWon")
              : t("bet.someoneWon", { name: winner.username })}
          </p>
        </section>
      ) : null}

      {isParticipant &&
      bet.status === "pending" &&
      bet.participants.length < 2 ? (
        <WaitingNotice>{t("bet.waitingJoin")}</WaitingNotice>
      ) : null}
      {isParticipant &&
      loaderData.settlement &&
      !loaderData.settlement.settled &&
      !loaderData.settlement.canRespond ? (
        <WaitingNotice>{t("bet.waitingAnswer")}</WaitingNotice>
      ) : null}

      <BetOutcomeNotices data={loaderData} />

      {loaderData.settlement ? (
        <SettlementCard data={loaderData.settlement} showOutcome={false} />
      ) : null}

      <DisputeNotice
        betId={bet.id}
        status={bet.status}
        referee={loaderData.referee}
      />

      {messageFailure ? null : (
        <FormAlert title={actionData?.title} message={actionData?.message} />
      )}

      <section className="flex flex-col gap-2" aria-label={t("bet.actions")}>
        {canJoin ? (
          <KeyedForm method="post">
            <input type="hidden" name="intent" value="join" />
            <input type="hidden" name="version" value={bet.version} />
            <button
              type="submit"
              className="btn-primary w-full"
              disabled={joining}
            >
              {joining
                ? t("bet.joining")
                : t("bet.joinFor", { amount: money(bet.amountCents) })}
            </button>
          </KeyedForm>
        ) : null}
        {canEdit ? (
          <div className="grid grid-cols-2 gap-2">
            <Link
              to={href("/bet/:id/edit", { id: String(bet.id) })}
              className="btn-secondary"
            >
              {t("bet.edit")}
            </Link>
            <Link
              to={`${href("/bet/:id/edit", { id: String(bet.id) })}?confirm=delete`}
              className="btn-secondary text-red-700"
            >
              {t("bet.delete")}
            </Link>
          </div>
        ) : null}
        {/* While a proposal is live the card above offers approve/reject instead. */}
        {bet.status === "active" && isCreator && !loaderData.settlement ? (
          <Link
            to={href("/settle-bet/:id", { id: String(bet.id) })}
            className="btn-primary"
          >
            {t("bet.settle")}
          </Link>
        ) : null}
        {bet.status === "active" && isParticipant && !loaderData.settlement ? (
          <Link
            to={href("/propose-settlement/:id", { id: String(bet.id) })}
            className="btn-secondary"
          >
            {t("bet.propose")}
          </Link>
        ) : null}
        {bet.status === "settled" &&
        isParticipant &&
        bet.winnerId !== me &&
        !loaderData.settlement?.paymentCompleted ? (
          <Link
            to={href("/payment/:id", { id: String(bet.id) })}
            className="btn-primary"
          >
            {t("bet.pay")}
          </Link>
        ) : null}
        <FairActions data={loaderData} />
        {loaderData.demoPaymentHref ? (
          <Link to={loaderData.demoPaymentHref} className="btn-secondary">
            {t("bet.demoPayment")}
          </Link>
        ) : null}
      </section>

      {loaderData.messages ? (
        <BetMessages
          betId={bet.id}
          messages={loaderData.messages}
          failure={messageFailure}
        />
      ) : null}

      <SharePanel
        title={bet.title}
        shareUrl={links.shareUrl}
        imageUrl={links.imagePath}
        joinUrl={links.joinUrl}
        qrSvg={loaderData.qrSvg}
      />
    </article>
  );
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  {
    title: loaderData
      ? metaT(matches)("bet.pageTitle", { title: loaderData.bet.title })
      : metaT(matches)("bet.titleNotFound"),
  },
];

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const t = useT();
  const failed = {
    title: t("errors.title"),
    message: t("errors.betLoadFailed"),
  };
  return (
    <GeneralErrorBoundary
      error={error}
      statusHandlers={{
        404: () => ({
          title: t("errors.betNotFoundTitle"),
          message: t("errors.betNotFound"),
        }),
      }}
      defaultStatusHandler={() => failed}
      unexpected={failed}
      Frame={BetCard}
    >
      <HomeLink />
      <Link to={href("/my-bets")} className="btn-secondary">
        {t("nav.myBets")}
      </Link>
    </GeneralErrorBoundary>
  );
}
const BetCard = cardFrame("flex justify-center gap-2");
