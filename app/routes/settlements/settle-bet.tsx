import { metaT, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
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
import type { MessageKey } from "~/locales/keys";

export const handle: RouteTraits<MessageKey> = {
  messages: ["settle", "money", "settlement", "common", "winner"],
  offline: { label: "kept.settle" },
};

export function loader({ request, params, context }: Route.LoaderArgs) {
  return settleFormLoader({ request, context, params }, settleRefusal);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const form = Object.fromEntries(await readFormData(request));
  const t = serverT(pageLanguage(request, user.language));
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
        title: t("settle.toastSettledTitle"),
        description: t("settle.toastSettled"),
      });
    }
    return redirectWithToast(href("/bet/:id", { id: String(betId) }), {
      title: t("settle.toastProposedTitle"),
      description: t("settle.toastProposed"),
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
  const t = useT();
  return (
    <WinnerChoice
      view={loaderData}
      failure={actionData}
      title={t("settle.title")}
      headingId="settle-heading"
      intro={t("settle.intro")}
      formLabel={t("settle.formLabel")}
    >
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? t("settle.settling") : t("settle.submit")}
      </button>
    </WinnerChoice>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("settle.pageTitle") },
];
