import { metaT, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { Link, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import type { Route } from "./+types/propose";
import { TextareaField } from "~/components/forms";
import { WinnerChoice } from "~/components/settlement/winner-choice";
import {
  NO_WINNER_TITLE,
  proposeRefusal,
} from "~/models/settlements/settlement-rules.server";
import { parseProposalInput } from "~/models/settlements/settlement-input.server";
import { proposeSettlement } from "~/models/settlements/settlement.server";
import { NOTES_MAX } from "~/domain/settlement-text";
import { formFailure } from "~/framework/page.server";
import { requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import { betIdFrom, settleFormLoader } from "./load.server";
import { readFormData } from "~/framework/form-data.server";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";

export const handle: RouteTraits<MessageKey> = {
  messages: ["settle", "propose", "money", "settlement", "common", "winner"],
  offline: { label: "kept.proposeSettlement" },
};

export function loader({ request, params, context }: Route.LoaderArgs) {
  return settleFormLoader({ request, context, params }, proposeRefusal);
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const betId = betIdFrom(params);
  const form = Object.fromEntries(await readFormData(request));
  const t = serverT(pageLanguage(request, user.language));
  try {
    const { winnerId, outcome, notes } = parseProposalInput(form);
    await proposeSettlement({
      betId,
      userId: user.id,
      winnerId,
      outcome,
      notes,
    });
    return redirectWithToast(
      href("/settlements/:id/approve", { id: String(betId) }),
      {
        title: t("settle.toastProposedTitle"),
        description: t("propose.toast"),
      },
    );
  } catch (error) {
    return formFailure(
      error,
      form.winnerId ? "Failed to propose settlement" : NO_WINNER_TITLE,
    );
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function ProposeSettlement({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { bet } = loaderData;
  const busy = useNavigation().state === "submitting";
  const t = useT();
  return (
    <WinnerChoice
      view={loaderData}
      failure={actionData}
      title={t("propose.title")}
      headingId="propose-heading"
      intro={t("propose.intro")}
      formLabel={t("propose.formLabel")}
    >
      <TextareaField
        label={t("propose.notes")}
        errors={actionData?.fieldErrors?.settlementNotes}
        textareaProps={{ name: "settlementNotes", maxLength: NOTES_MAX }}
      />
      <div className="flex gap-2">
        <button type="submit" className="btn-primary flex-1" disabled={busy}>
          {busy ? t("propose.proposing") : t("propose.submit")}
        </button>
        <Link
          to={href("/bet/:id", { id: String(bet.id) })}
          className="btn-secondary"
        >
          {t("propose.cancel")}
        </Link>
      </div>
    </WinnerChoice>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("propose.pageTitle") },
];
