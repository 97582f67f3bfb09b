import { Link, useNavigation, href } from "react-router";
import { keepFormIfUnsent } from "~/browser/unsent-forms";
import { KeyedForm } from "~/components/keyed-form";
import { ProfileSubPage } from "~/components/profile/profile-sub-page";
import type { Route } from "./+types/data";
import { FormAlert, PasswordField } from "~/components/forms";
import { closeAccount, listOpenBets } from "~/models/accounts/account.server";
import { endSession, requireUser } from "~/models/accounts/session.server";
import { invalid } from "~/utils/errors";
import { readFormData } from "~/framework/form-data.server";
import { formFailure } from "~/framework/page.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";
import { metaT, useT } from "~/components/i18n";
import { serverT } from "~/framework/catalogs.server";
import { pageLanguage } from "~/framework/language.server";

// /profile/data (docs/product-rules.md#your-data): download everything of yours as JSON (a plain
// link to GET /api/user/export), and close the account. Both work without
// JavaScript.

// Account data (export, closing) never waits on the device.
export const handle: RouteTraits = {
  messages: ["header", "subPage", "myData"],
  offline: false,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser({ request, context });
  return { openBets: await listOpenBets(user.id) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser({ request, context });
  const form = await readFormData(request);
  const t = serverT(pageLanguage(request, user.language));
  try {
    if (form.get("intent") !== "delete-account")
      throw invalid("Unknown action.");
    if (form.get("confirm") !== "yes") {
      const confirm = t("myData.confirmRequired");
      throw invalid(confirm, { confirm: [confirm] });
    }
    const password = form.get("password");
    await closeAccount({
      userId: user.id,
      input: { password: typeof password === "string" ? password : undefined },
    });
  } catch (error) {
    return formFailure(error, t("myData.notDeleted"));
  }
  // Signed out, to the visitor's front door (as Sign Out does).
  return redirectWithToast(
    href("/auth"),
    {
      title: t("myData.deletedTitle"),
      description: t("myData.deleted"),
    },
    { headers: { "Set-Cookie": await endSession(request) } },
  );
}

// A send the network lost keeps the typed form (docs/product-rules.md#shaky-connections).
export const clientAction = (args: Route.ClientActionArgs) =>
  keepFormIfUnsent(args);

export default function YourData({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { openBets } = loaderData;
  const deleting = useNavigation().state === "submitting";
  const t = useT();
  return (
    <ProfileSubPage title={t("myData.heading")}>
      <section className="card space-y-2" aria-labelledby="export-heading">
        <h2 id="export-heading" className="text-lg font-semibold">
          {t("myData.downloadHeading")}
        </h2>
        <p className="text-sm text-slate-600">{t("myData.downloadText")}</p>
        <a href="/api/user/export" download className="btn-primary w-full">
          {t("myData.download")}
        </a>
      </section>

      <section
        className="card space-y-3 border-red-200"
        aria-labelledby="delete-heading"
      >
        <h2 id="delete-heading" className="text-lg font-semibold">
          {t("myData.deleteHeading")}
        </h2>
        <p className="text-sm text-slate-600">{t("myData.deleteText")}</p>
        {openBets.length > 0 ? (
          <div className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            <p>{t("myData.openBets")}</p>
            <ul className="mt-1 list-disc pl-5">
              {openBets.map((bet) => (
                <li key={bet.id}>
                  <Link
                    to={href("/bet/:id", { id: String(bet.id) })}
                    className="underline"
                  >
                    {bet.title}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <FormAlert title={actionData?.title} message={actionData?.message} />
        <KeyedForm method="post" className="space-y-3">
          <input type="hidden" name="intent" value="delete-account" />
          <PasswordField
            label={t("myData.password")}
            name="password"
            errors={actionData?.fieldErrors?.password}
          />
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="confirm"
                value="yes"
                required
                className="mt-0.5 h-5 w-5"
              />
              <span>{t("myData.understand")}</span>
            </label>
            {actionData?.fieldErrors?.confirm ? (
              <p className="field-error">{actionData.fieldErrors.confirm[0]}</p>
            ) : null}
          </div>
          <button
            type="submit"
            className="btn-danger w-full"
            disabled={deleting}
          >
            {deleting ? t("myData.deleting") : t("myData.delete")}
          </button>
        </KeyedForm>
      </section>
    </ProfileSubPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("myData.pageTitle") },
];
