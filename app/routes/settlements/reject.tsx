import { metaT, Rich, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { intlLocale } from "~/domain/language";
import { Link, data, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { BackToBet } from "~/components/back-to-bet";
import type { Route } from "./+types/reject";
import { FormAlert, TextareaField } from "~/components/forms";
import { NoticeCard } from "~/components/notice-card";
import { getSettlementView } from "~/models/settlements/settlement-view.server";
import {
  rejectRefusal,
  responseFactsOf,
} from "~/models/settlements/settlement-rules.server";
import { parseRejectionInput } from "~/models/settlements/settlement-input.server";
import { rejectSettlement } from "~/models/settlements/settlement.server";
import { NOTES_MAX } from "~/domain/settlement-text";
import { formatDateTime } from "~/utils/dates";
import { readTimeZone } from "~/utils/time-zone.server";
import { formFailure } from "~/framework/page.server";
import { requireUser } from "~/models/accounts/session.server";
import { loadMessages } from "~/routes/bets/bet-messages.server";
import { MessagesCard } from "~/components/bets/bet-messages";
import { redirectWithToast } from "~/framework/toast.server";
import { partiesOfView } from "~/models/settlements/settlement-rules.server";
import { betIdFrom, loadBetOr404 } from "./load.server";
import { readFormData } from "~/framework/form-data.server";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";

export const handle: RouteTraits<MessageKey> = {
  messages: ["reject", "approve", "card", "common", "messages"],
  offline: { label: "kept.rejectSettlement" },
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const bet = await loadBetOr404(betId, user.id);
  const view = await getSettlementView({ betId, userId: user.id });
  // The reject policy, as the action's guard asks it: an onlooker may not
  // reject at all (403); a party is only too late (409).
  const refusal = rejectRefusal(
    responseFactsOf(bet, partiesOfView(bet), view?.settlement),
    user.id,
  );
  if (!view || refusal)
    return data(
      { betId, proposal: null, messages: null },
      { status: refusal?.status ?? 404 },
    );
  return {
    betId,
    // What was said, above the buttons (docs/product-rules.md#messages).
    messages: await loadMessages(bet, user.id, readTimeZone(request)),
    proposal: {
      title: view.bet.title,
      winnerName: view.winnerName,
      proposerName: view.proposerName,
      ownProposal: view.settlement.proposedBy === user.id,
      // docs/product-rules.md#answer-windows: the deadline wherever a live proposal is shown.
      respondBy: view.settlement.respondBy?.toISOString() ?? null,
      respondByLabel: view.settlement.respondBy
        ? formatDateTime(
            view.settlement.respondBy,
            readTimeZone(request),
            intlLocale(pageLanguage(request, user.language)),
          )
        : null,
    },
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const form = Object.fromEntries(await readFormData(request));
  try {
    const { reason } = parseRejectionInput(form);
    await rejectSettlement({ betId, userId: user.id, reason });
    const t = serverT(pageLanguage(request, user.language));
    return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
      title: t("reject.toastTitle"),
      description: t("reject.toast"),
    });
  } catch (error) {
    return formFailure(error, "Failed to reject settlement");
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function RejectSettlement({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { betId, proposal } = loaderData;
  const busy = useNavigation().state === "submitting";
  const t = useT();
  if (!proposal) {
    return (
      <NoticeCard title={t("approve.notFound")} message={t("reject.none")}>
        <BackToBet betId={betId} />
      </NoticeCard>
    );
  }
  return (
    <section className="card space-y-4" aria-labelledby="reject-heading">
      <div>
        <h1 id="reject-heading" className="text-xl font-bold">
          {proposal.ownProposal ? t("reject.withdraw") : t("reject.title")}
        </h1>
        <p className="text-sm text-slate-600">
          {proposal.winnerName === null
            ? t("reject.proposedVoid", {
                title: proposal.title,
                proposer: proposal.proposerName ?? "",
              })
            : t("reject.proposedWinner", {
                title: proposal.title,
                proposer: proposal.proposerName ?? "",
                winner: proposal.winnerName,
              })}
        </p>
        {proposal.respondBy && !proposal.ownProposal ? (
          <p className="text-sm text-slate-700">
            <Rich
              text={t("card.autoYou", { when: proposal.respondByLabel ?? "" })}
              tags={{
                t: (inner) => (
                  <time dateTime={proposal.respondBy ?? undefined}>
                    {inner}
                  </time>
                ),
              }}
            />
          </p>
        ) : null}
      </div>
      <MessagesCard
        messages={loaderData.messages}
        betId={betId}
        className="space-y-2 border-t border-slate-200 pt-3"
      />
      <FormAlert title={actionData?.title} message={actionData?.message} />
      <KeyedForm
        method="post"
        className="space-y-4"
        aria-label={t("reject.title")}
      >
        <TextareaField
          label={t("reject.reason")}
          errors={actionData?.fieldErrors?.rejectionReason}
          textareaProps={{ name: "rejectionReason", maxLength: NOTES_MAX }}
        />
        <div className="flex gap-2">
          <button type="submit" className="btn-danger flex-1" disabled={busy}>
            {busy ? t("reject.rejecting") : t("reject.submit")}
          </button>
          <Link
            to={href("/settlements/:id/approve", { id: String(betId) })}
            className="btn-secondary"
          >
            {t("reject.cancel")}
          </Link>
        </div>
      </KeyedForm>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("reject.pageTitle") },
];
