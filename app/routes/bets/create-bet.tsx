import { Link, useNavigation, href } from "react-router";
import { KeyedForm } from "~/components/keyed-form";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { metaT, useLanguage, useT } from "~/components/i18n";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import type { Route } from "./+types/create-bet";
import { BetFormFields } from "~/components/bets/bet-form-fields";
import { FormAlert } from "~/components/forms";
import type { BetFormValues } from "~/domain/bet";
import { parseBetForm, readBetForm } from "~/models/bets/bet-form.server";
import { createBet } from "~/models/bets/bet.server";
import { refereeChoices } from "~/models/social/friend-lists.server";
import { utcToZonedParts } from "~/utils/zoned-time.server";
import { formFailure } from "~/framework/page.server";
import { getUser, requireUser } from "~/models/accounts/session.server";
import { readTimeZone } from "~/utils/time-zone.server";
import { redirectWithToast } from "~/framework/toast.server";
import { readFormData } from "~/framework/form-data.server";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";

const DAY = 86_400_000;

// A bet made while the network is gone waits on the device.
export const handle: RouteTraits<MessageKey> = {
  messages: ["create", "betForm", "fee"],
  offline: { label: "kept.createBet" },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  const timeZone = readTimeZone(request);
  const now = Date.now();
  // docs/product-rules.md#statuses: the deadline defaults to tomorrow at 23:59:59 in my zone.
  const defaults: BetFormValues = {
    title: "",
    description: "",
    amount: "10",
    currency: user.currency,
    visibility: "public",
    deadlineDate: utcToZonedParts(now + DAY, timeZone).date,
    deadlineTime: "",
    includeTime: false,
    timeZone,
    refereeId: "",
  };
  return {
    defaults,
    todayDate: utcToZonedParts(now, timeZone).date,
    friends: await refereeChoices(user.id),
    currency: user.currency,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await getUser({ request, context });
  if (!user) {
    return redirectWithToast(`${href("/auth")}?return_to=%2Fcreate-bet`, {
      title: "Authentication required",
      description: "Please log in to create a bet",
      type: "error",
    });
  }
  const values = readBetForm(await readFormData(request));
  const language = pageLanguage(request, user.language);
  const t = serverT(language);
  try {
    const bet = await createBet({
      creatorId: user.id,
      // The page's language reads the amount.
      input: parseBetForm(values, "create", Date.now(), {
        language,
        currency: user.currency,
      }),
    });
    return redirectWithToast(href("/bet/:id", { id: String(bet.id) }), {
      title: t("create.toastTitle"),
      description: t("create.toastText", { code: bet.code }),
    });
  } catch (error) {
    return formFailure(
      error,
      (failure) =>
        failure.code === "deadline_past"
          ? "Invalid deadline"
          : failure.status === 400
            ? "Error creating bet"
            : "Failed to create bet",
      { values },
    );
  }
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function CreateBet({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting =
    navigation.state !== "idle" &&
    navigation.formAction === href("/create-bet");
  const defaults = actionData ? actionData.values : loaderData.defaults;
  const t = useT();
  const language = useLanguage();
  return (
    <div className="mx-auto max-w-lg">
      <header className="mb-4 flex items-center justify-between">
        <h1 className="text-2xl font-bold">{t("create.heading")}</h1>
        <Link
          to="/"
          aria-label={t("create.close")}
          className="inline-flex size-11 items-center justify-center rounded-full text-2xl text-slate-600 hover:bg-slate-100"
        >
          <span aria-hidden="true">×</span>
        </Link>
      </header>
      <KeyedForm
        className="card space-y-4"
        aria-label={t("create.formLabel")}
        key={actionData ? JSON.stringify(actionData.values) : "new"}
      >
        <FormAlert title={actionData?.title} message={actionData?.message} />
        <BetFormFields
          mode="create"
          defaults={defaults}
          errors={actionData?.fieldErrors ?? {}}
          todayDate={loaderData.todayDate}
          friends={loaderData.friends}
          currency={loaderData.currency}
          language={language}
        />
        <p className="text-sm text-slate-600">
          {t("create.feeNote")}{" "}
          <Link
            to={href("/help/fees")}
            className="font-medium text-brand-700 underline"
          >
            {t("create.feeLink")}
          </Link>
        </p>
        <button
          type="submit"
          className="btn-primary w-full"
          disabled={submitting}
        >
          {submitting ? t("create.submitting") : t("create.submit")}
        </button>
        <Link to="/" className="btn-secondary w-full">
          {t("create.home")}
        </Link>
      </KeyedForm>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("create.title") },
];
