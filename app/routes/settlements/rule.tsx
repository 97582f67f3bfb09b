import { data, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { BackToBet } from "~/components/back-to-bet";
import type { Route } from "./+types/rule";
import { SettlementFormCard } from "~/components/settlement/settlement-form-card";
import { NoticeCard } from "~/components/notice-card";
import { WinnerFieldset } from "~/components/settlement/winner-fieldset";
import {
  ruleRefusal,
  NO_WINNER_TITLE,
} from "~/models/settlements/settlement-rules.server";
import { parseProposalInput } from "~/models/settlements/settlement-input.server";
import { listSettlementHistory } from "~/models/settlements/settlement-view.server";
import {
  ruleDispute,
  ruleFactsOf,
} from "~/models/settlements/settlement-referee.server";
import { formFailure } from "~/framework/page.server";
import { readFormData } from "~/framework/form-data.server";
import { requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import { betIdFrom, loadBetOr404, partiesOf } from "./load.server";
import { loadMessages } from "~/routes/bets/bet-messages.server";
import { MessagesCard } from "~/components/bets/bet-messages";
import { readTimeZone } from "~/utils/time-zone.server";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";
import { metaT, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";

export const handle: RouteTraits<MessageKey> = {
  messages: ["common", "winner", "messages", "ruling"],
  offline: { label: "kept.ruling" },
};

// /bet/{id}/rule: the referee's own screen (docs/product-rules.md#referee). Works without
// JavaScript: native radios and a plain POST.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const bet = await loadBetOr404(betId, user.id);
  const isReferee = bet.refereeId === user.id;
  // The referee policy, as the action's guard asks it.
  const refusal = ruleRefusal(ruleFactsOf(bet), user.id);
  const blocked = refusal ? (refusal.shown ?? refusal.message) : null;
  const history = isReferee
    ? (await listSettlementHistory(betId))
        .filter((e) => e.type === "settlement_rejected")
        .map((e) => ({
          id: e.id,
          reason: typeof e.data?.reason === "string" ? e.data.reason : null,
          notes: typeof e.data?.notes === "string" ? e.data.notes : null,
        }))
    : [];
  return data(
    {
      viewerId: user.id,
      bet: {
        id: bet.id,
        title: bet.title,
        description: bet.description,
        amountCents: bet.amountCents,
        currency: bet.currency,
        people: partiesOf(bet),
      },
      blocked,
      history,
      // What the two sides said, above the ruling (docs/product-rules.md#messages).
      messages: blocked
        ? null
        : await loadMessages(bet, user.id, readTimeZone(request)),
    },
    { status: refusal?.status === 403 ? 403 : 200 },
  );
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const form = Object.fromEntries(await readFormData(request));
  const t = serverT(pageLanguage(request, user.language));
  try {
    const { outcome, winnerId } = parseProposalInput({
      winnerId: form.winnerId,
    });
    await ruleDispute({ betId, userId: user.id, outcome, winnerId });
    return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
      title: t("ruling.toastTitle"),
      description:
        outcome === "void" ? t("ruling.toastVoid") : t("ruling.toastSettled"),
    });
  } catch (error) {
    return formFailure(
      error,
      form.winnerId ? t("ruling.failed") : NO_WINNER_TITLE,
    );
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function RuleOnBet({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet, blocked, history, viewerId } = loaderData;
  const busy = useNavigation().state === "submitting";
  const t = useT();
  if (blocked) {
    return (
      <NoticeCard title={t("ruling.heading")} message={blocked}>
        <BackToBet betId={bet.id} />
      </NoticeCard>
    );
  }
  return (
    <SettlementFormCard
      id="rule-heading"
      title={t("ruling.heading")}
      bet={bet}
      intro={t("ruling.intro")}
      failure={actionData}
    >
      <p className="text-sm text-slate-700">{bet.description}</p>
      {history.length ? (
        <ul
          className="space-y-1 text-sm text-slate-700"
          aria-label={t("ruling.rejected")}
        >
          {history.map((h) => (
            <li key={h.id}>
              {h.reason
                ? t("ruling.rejectedWhy", { reason: h.reason })
                : t("ruling.rejectedOne")}
            </li>
          ))}
        </ul>
      ) : null}
      <MessagesCard
        messages={loaderData.messages}
        betId={bet.id}
        className="space-y-2 border-t border-slate-200 pt-3"
      />
      <KeyedForm
        method="post"
        className="space-y-4"
        aria-label={t("ruling.formLabel")}
      >
        <WinnerFieldset
          people={bet.people}
          viewerId={viewerId}
          errors={actionData?.fieldErrors?.winnerId}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? t("ruling.recording") : t("ruling.submit")}
        </button>
      </KeyedForm>
    </SettlementFormCard>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("ruling.pageTitle") },
];
