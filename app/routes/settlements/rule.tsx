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

export const handle: RouteTraits = {
  messages: ["common", "winner", "messages"],
  offline: { label: "Referee's decision" },
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
  try {
    const { outcome, winnerId } = parseProposalInput({
      winnerId: form.winnerId,
    });
    await ruleDispute({ betId, userId: user.id, outcome, winnerId });
    return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
      title: "Ruling recorded",
      description:
        outcome === "void"
          ? "The bet is called off: no money moves."
          : "The bet is settled.",
    });
  } catch (error) {
    return formFailure(
      error,
      form.winnerId ? "Failed to record the ruling" : NO_WINNER_TITLE,
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
  if (blocked) {
    return (
      <NoticeCard title="Referee's ruling" message={blocked}>
        <BackToBet betId={bet.id} />
      </NoticeCard>
    );
  }
  return (
    <SettlementFormCard
      id="rule-heading"
      title="Referee's ruling"
      bet={bet}
      intro="The two sides could not agree and asked you to decide. Your ruling settles the bet at once: name the winner, or call it off."
      failure={actionData}
    >
      <p className="text-sm text-slate-700">{bet.description}</p>
      {history.length ? (
        <ul
          className="space-y-1 text-sm text-slate-700"
          aria-label="Rejected proposals"
        >
          {history.map((h) => (
            <li key={h.id}>
              A proposal was rejected
              {h.reason ? `: “${h.reason}”` : "."}
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
        aria-label="Rule on the bet"
      >
        <WinnerFieldset
          people={bet.people}
          viewerId={viewerId}
          errors={actionData?.fieldErrors?.winnerId}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Recording..." : "Record Ruling"}
        </button>
      </KeyedForm>
    </SettlementFormCard>
  );
}

export function meta() {
  return [{ title: "Referee's ruling · Fairshake" }];
}
