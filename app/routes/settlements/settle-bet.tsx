import { useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import type { Route } from "./+types/settle-bet";
import { WinnerChoice } from "~/components/settlement/winner-choice";
import {
  NO_WINNER_TITLE,
  settleRefusal,
} from "~/models/settlements/settlement-rules.server";
import { parseProposalInput } from "~/models/settlements/settlement-input.server";
import { settleBet } from "~/models/settlements/settlement.server";
import { formFailure } from "~/framework/page.server";
import { requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import { betIdFrom, settleFormLoader } from "./load.server";
import { readFormData } from "~/framework/form-data.server";
import type { RouteTraits } from "~/domain/route-traits";

export const handle: RouteTraits = {
  offline: { label: "Settlement", namesIntent: true },
};

export function loader({ request, params, context }: Route.LoaderArgs) {
  return settleFormLoader({ request, context, params }, settleRefusal);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const form = Object.fromEntries(await readFormData(request));
  try {
    const { winnerId, outcome } = parseProposalInput({
      winnerId: form.winnerId,
    });
    const result = await settleBet({
      betId,
      userId: user.id,
      winnerId,
      outcome,
    });
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

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function SettleBet({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <WinnerChoice
      view={loaderData}
      failure={actionData}
      title="Settle bet"
      headingId="settle-heading"
      intro="Naming the other participant concedes the bet: it is settled at once and you pay the bet amount. Naming yourself, or calling it off, sends a proposal the other participant must approve."
      formLabel="Settle bet"
    >
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? "Settling..." : "Settle Bet"}
      </button>
    </WinnerChoice>
  );
}

export function meta() {
  return [{ title: "Settle bet · Fairshake" }];
}
