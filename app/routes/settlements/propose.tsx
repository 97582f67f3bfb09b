import { Form, Link, useNavigation, href } from "react-router";
import type { Route } from "./+types/propose";
import { TextareaField } from "~/components/forms";
import { SettlementFormCard } from "~/components/settlement/settlement-form-card";
import { SettlementBlocked } from "~/components/settlement/money-summary";
import { WinnerFieldset } from "~/components/settlement/winner-fieldset";
import {
  NO_WINNER_TITLE,
  parseProposalInput,
  proposeRefusal,
} from "~/models/settlement-rules.server";
import { proposeSettlement } from "~/models/settlement.server";
import { NOTES_MAX } from "~/utils/settlement-text";
import { formFailure } from "~/utils/page.server";
import { requireUser } from "~/models/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { betIdFrom, settleFormLoader } from "./load.server";
import { readFormData } from "~/utils/form-data.server";

export function loader({ request, params }: Route.LoaderArgs) {
  return settleFormLoader(request, params, proposeRefusal);
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const betId = betIdFrom(params);
  const form = Object.fromEntries(await readFormData(request));
  try {
    const { winnerId, outcome, notes } = parseProposalInput(form);
    proposeSettlement({ betId, userId: user.id, winnerId, outcome, notes });
    return redirectWithToast(
      href("/settlements/:id/approve", { id: String(betId) }),
      {
        title: "Settlement proposed",
        description:
          "The other side must approve it before the bet is settled.",
      },
    );
  } catch (error) {
    return formFailure(
      error,
      form.winnerId ? "Failed to propose settlement" : NO_WINNER_TITLE,
    );
  }
}

export default function ProposeSettlement({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet, blocked, live, viewerId } = loaderData;
  const busy = useNavigation().state === "submitting";
  if (blocked) {
    return (
      <SettlementBlocked
        title="Propose a settlement"
        message={blocked}
        betId={bet.id}
        live={Boolean(live)}
      />
    );
  }
  return (
    <SettlementFormCard
      id="propose-heading"
      title="Propose a settlement"
      bet={bet}
      intro="Your side approves at once; the bet is settled when the other side approves too."
      failure={actionData}
    >
      <Form method="post" className="space-y-4" aria-label="Propose settlement">
        <WinnerFieldset
          people={bet.people}
          viewerId={viewerId}
          errors={actionData?.fieldErrors?.winnerId}
        />
        <TextareaField
          label="Notes (optional)"
          errors={actionData?.fieldErrors?.settlementNotes}
          textareaProps={{ name: "settlementNotes", maxLength: NOTES_MAX }}
        />
        <div className="flex gap-2">
          <button type="submit" className="btn-primary flex-1" disabled={busy}>
            {busy ? "Proposing..." : "Propose Settlement"}
          </button>
          <Link
            to={href("/bet/:id", { id: String(bet.id) })}
            className="btn-secondary"
          >
            Cancel
          </Link>
        </div>
      </Form>
    </SettlementFormCard>
  );
}

export function meta() {
  return [{ title: "Propose a settlement · Fairshake" }];
}
