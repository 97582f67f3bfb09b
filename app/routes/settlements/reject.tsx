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
import { NOTES_MAX, SETTLEMENT_NOT_FOUND } from "~/domain/settlement-text";
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

export const handle: RouteTraits = {
  offline: { label: "Reject a settlement" },
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
        ? formatDateTime(view.settlement.respondBy, readTimeZone(request))
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
    return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
      title: "Settlement rejected",
      description: "A new settlement can be proposed.",
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
  if (!proposal) {
    return (
      <NoticeCard
        title={SETTLEMENT_NOT_FOUND}
        message="There is no open settlement proposal for this bet."
      >
        <BackToBet betId={betId} />
      </NoticeCard>
    );
  }
  return (
    <section className="card space-y-4" aria-labelledby="reject-heading">
      <div>
        <h1 id="reject-heading" className="text-xl font-bold">
          {proposal.ownProposal
            ? "Withdraw your proposal"
            : "Reject settlement"}
        </h1>
        <p className="text-sm text-slate-600">
          {proposal.title}: {proposal.proposerName} proposed{" "}
          {proposal.winnerName === null
            ? "calling it off (no winner)"
            : `${proposal.winnerName} as the winner`}
          .
        </p>
        {proposal.respondBy && !proposal.ownProposal ? (
          <p className="text-sm text-slate-700">
            Approved automatically on{" "}
            <time dateTime={proposal.respondBy}>{proposal.respondByLabel}</time>{" "}
            unless you reject it.
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
        aria-label="Reject settlement"
      >
        <TextareaField
          label="Reason (optional)"
          errors={actionData?.fieldErrors?.rejectionReason}
          textareaProps={{ name: "rejectionReason", maxLength: NOTES_MAX }}
        />
        <div className="flex gap-2">
          <button type="submit" className="btn-danger flex-1" disabled={busy}>
            {busy ? "Rejecting..." : "Reject Settlement"}
          </button>
          <Link
            to={href("/settlements/:id/approve", { id: String(betId) })}
            className="btn-secondary"
          >
            Cancel
          </Link>
        </div>
      </KeyedForm>
    </section>
  );
}

export function meta() {
  return [{ title: "Reject settlement · Fairshake" }];
}
