import { Form, useNavigation, href } from "react-router";
import type { Route } from "./+types/settle-bet";
import { SettlementFormCard } from "~/components/settlement/settlement-form-card";
import { SettlementBlocked } from "~/components/settlement/money-summary";
import { WinnerFieldset } from "~/components/settlement/winner-fieldset";
import {
  NO_WINNER_TITLE,
  parseProposalInput,
  settleRefusal,
} from "~/models/settlement-rules.server";
import { settleBet } from "~/models/settlement.server";
import { formFailure } from "~/utils/page.server";
import { requireUser } from "~/models/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { betIdFrom, settleFormLoader } from "./load.server";
import { readFormData } from "~/utils/form-data.server";

export function loader({ request, params }: Route.LoaderArgs) {
  return settleFormLoader(request, params, settleRefusal);
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const betId = betIdFrom(params);
  const form = Object.fromEntries(await readFormData(request));
  try {
    const { winnerId, outcome } = parseProposalInput({
      winnerId: form.winnerId,
    });
    const result = settleBet({ betId, userId: user.id, winnerId, outcome });
    if (result.kind === "settled") {
      return redirectWithToast(href("/payment/:id", { id: String(betId) }), {
        title: "Bet settled",
        description: "You conceded the bet. Please pay the winnings.",
      });
    }
    return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
      title: "Settlement proposed",
      description: "The other participant must approve you as the winner.",
    });
  } catch (error) {
    return formFailure(
      error,
      form.winnerId ? "Failed to settle bet" : NO_WINNER_TITLE,
    );
  }
}

export default function SettleBet({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet, blocked, live, viewerId } = loaderData;
  const busy = useNavigation().state === "submitting";
  if (blocked) {
    return (
      <SettlementBlocked
        title="Settle bet"
        message={blocked}
        betId={bet.id}
        live={Boolean(live)}
      />
    );
  }
  return (
    <SettlementFormCard
      id="settle-heading"
      title="Settle bet"
      bet={bet}
      intro="Naming the other participant concedes the bet: it is settled at once and you pay the bet amount. Naming yourself, or calling it off, sends a proposal the other participant must approve."
      failure={actionData}
    >
      <Form method="post" className="space-y-4" aria-label="Settle bet">
        <WinnerFieldset
          people={bet.people}
          viewerId={viewerId}
          errors={actionData?.fieldErrors?.winnerId}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Settling..." : "Settle Bet"}
        </button>
      </Form>
    </SettlementFormCard>
  );
}

export function meta() {
  return [{ title: "Settle bet · Fairshake" }];
}
