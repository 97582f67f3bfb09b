// /bet/{id}/edit and /edit-bet/{id}: one screen (docs/product-rules.md#screens). Delete asks a
// second time with a confirmation form (?confirm=delete), no JS needed.
import { Link, useNavigation, useSearchParams, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import type { Route } from "./+types/edit-bet";
import { BetFormFields } from "~/components/bets/bet-form-fields";
import type { BetFormValues } from "~/domain/bet";
import { FormAlert } from "~/components/forms";
import {
  END_OF_DAY,
  parseBetForm,
  readBetForm,
} from "~/models/bets/bet-form.server";
import { deleteBet, updateBet } from "~/models/bets/bet.server";
import { editFactsOf, editRefusal } from "~/models/bets/bet-policy.server";
import { parseId } from "~/utils/validation";
import { utcToZonedParts } from "~/utils/zoned-time.server";
import { formFailure } from "~/framework/page.server";
import { betForPage } from "./load.server";
import { requireUser } from "~/models/accounts/session.server";
import { betCurrency } from "~/models/bets/bet-access.server";
import { minorToUnits } from "~/domain/currency";
import { refereeChoices } from "~/models/social/friend-lists.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { redirectWithToast } from "~/framework/toast.server";
import { readFormData } from "~/framework/form-data.server";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";
import { metaT, useLanguage, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";

// An edit made while the network is gone waits on the device.
export const handle: RouteTraits<MessageKey> = {
  messages: ["betForm", "fee", "editBet"],
  offline: { label: "kept.editBet", intents: { delete: "kept.deleteBet" } },
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const bet = await betForPage(params.id, user.id);
  // docs/product-rules.md#forms-and-messages: refusals toast and send the person to /my-bets.
  const refusal = editRefusal(editFactsOf(bet, user.id), user.id);
  if (refusal)
    throw await redirectWithToast(href("/my-bets"), {
      title: refusal.title,
      description: refusal.message,
      type: "error",
    });
  const timeZone = readTimeZone(request);
  const parts = utcToZonedParts(bet.deadline.getTime(), timeZone);
  const endOfDay = `${parts.time}:${parts.seconds}` === END_OF_DAY;
  const defaults: BetFormValues = {
    title: bet.title,
    description: bet.description,
    amount: String(minorToUnits(bet.amountCents, bet.currency)),
    currency: bet.currency,
    visibility: bet.visibility,
    deadlineDate: parts.date,
    deadlineTime: endOfDay ? "" : parts.time,
    includeTime: !endOfDay,
    timeZone,
    refereeId: bet.refereeId === null ? "" : String(bet.refereeId),
  };
  return {
    id: bet.id,
    title: bet.title,
    defaults,
    todayDate: utcToZonedParts(Date.now(), timeZone).date,
    friends: await refereeChoices(user.id),
    currency: bet.currency,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const betId = parseId(params.id) ?? 0;
  const form = await readFormData(request);
  const intent = form.get("intent");
  const language = pageLanguage(request, user.language);
  const t = serverT(language);
  if (intent === "delete") {
    try {
      await deleteBet({ betId, userId: user.id });
      return redirectWithToast(href("/my-bets"), {
        title: t("editBet.deletedTitle"),
        description: t("editBet.deleted"),
      });
    } catch (error) {
      return formFailure(error, () => t("editBet.deleteFailed"), {
        values: null,
      });
    }
  }
  const values = readBetForm(form);
  try {
    const bet = await updateBet({
      betId,
      userId: user.id,
      input: parseBetForm(values, "edit", Date.now(), {
        // The page's language reads the amount.
        language,
        currency: await betCurrency(betId),
      }),
    });
    return redirectWithToast(href("/bet/:id", { id: String(bet.id) }), {
      title: t("editBet.updatedTitle"),
      description: t("editBet.updated"),
    });
  } catch (error) {
    return formFailure(error, t("editBet.updateFailed"), { values });
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function EditBet({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const pendingIntent =
    navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const confirming = params.get("confirm") === "delete";
  const defaults = actionData?.values ?? loaderData.defaults;
  const t = useT();
  const language = useLanguage();
  return (
    <div className="mx-auto max-w-lg space-y-4">
      <header className="flex items-center gap-2">
        <Link
          to={href("/my-bets")}
          className="btn-secondary"
          aria-label={t("editBet.backLabel")}
        >
          {t("editBet.back")}
        </Link>
        <h1 className="text-2xl font-bold">{t("editBet.heading")}</h1>
      </header>
      <FormAlert title={actionData?.title} message={actionData?.message} />
      {confirming ? (
        <section
          className="card space-y-3 border-red-300"
          aria-labelledby="confirm-heading"
        >
          <h2 id="confirm-heading" className="font-semibold">
            {t("editBet.confirmHeading")}
          </h2>
          <p className="text-sm text-slate-700">
            {t("editBet.confirmText", { title: loaderData.title })}
          </p>
          <KeyedForm method="post" className="grid grid-cols-2 gap-2">
            <input type="hidden" name="intent" value="delete" />
            <Link to="?" className="btn-secondary" replace>
              {t("editBet.cancel")}
            </Link>
            <button
              type="submit"
              className="btn-danger"
              disabled={pendingIntent === "delete"}
            >
              {pendingIntent === "delete"
                ? t("editBet.deleting")
                : t("editBet.confirmDelete")}
            </button>
          </KeyedForm>
        </section>
      ) : null}
      <KeyedForm
        method="post"
        className="card space-y-4"
        aria-label={t("editBet.formLabel")}
        key={actionData?.values ? JSON.stringify(actionData.values) : "bet"}
      >
        <input type="hidden" name="intent" value="update" />
        <BetFormFields
          mode="edit"
          defaults={defaults}
          errors={actionData?.fieldErrors ?? {}}
          todayDate={loaderData.todayDate}
          friends={loaderData.friends}
          currency={loaderData.currency}
          language={language}
        />
        <button
          type="submit"
          className="btn-primary w-full"
          disabled={pendingIntent === "update"}
        >
          {pendingIntent === "update" ? t("editBet.saving") : t("editBet.save")}
        </button>
      </KeyedForm>
      {confirming ? null : (
        <Link to="?confirm=delete" className="btn-danger w-full">
          {t("editBet.delete")}
        </Link>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("editBet.pageTitle") },
];
