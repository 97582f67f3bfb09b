import { Form, Link, href } from "react-router";
import type { Route } from "./+types/reset-password";
import { FormAlert, formAlert, PasswordField } from "~/components/forms";
import { PublicCardPage } from "~/components/page-frames";
import {
  BAD_RESET_LINK,
  badResetLink,
  confirmPasswordReset,
  resetLinkIsLive,
} from "~/models/accounts/password-reset.server";
import { startSession } from "~/models/accounts/session.server";
import { invalid } from "~/utils/errors";
import { formReply, pageFailure } from "~/framework/page.server";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { metaT, useT } from "~/components/i18n";
import { pageWords } from "~/framework/page-words.server";
import { readFormData } from "~/framework/form-data.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";

// /reset-password?token=… (docs/product-rules.md#accounts): opening the link only shows the form
// (a mail scanner that follows it changes nothing); the POST sets the new
// password, ends every session of the account and signs this browser in.
export const handle: RouteTraits = {
  messages: ["header", "passwordReset"],
  hydrate: false,
  offline: false,
};

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return {
    token,
    live: await resetLinkIsLive(token),
    badLink: pageWords(BAD_RESET_LINK),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  const token = form.get("token");
  const password = form.get("password");
  const t = serverT(pageLanguage(request));
  const refused = (error: unknown) => formReply(pageFailure(error), "");
  if (!(await resetLinkIsLive(token))) return refused(badResetLink());
  if (typeof password === "string" && password !== form.get("confirmPassword"))
    return refused(
      invalid("Passwords do not match", {
        confirmPassword: ["Passwords do not match"],
      }),
    );
  try {
    const user = await confirmPasswordReset({ token, password });
    return redirectWithToast(
      "/",
      {
        title: t("passwordReset.toastChanged"),
        description: t("passwordReset.toastChangedText"),
      },
      { headers: await startSession(request, user.id) },
    );
  } catch (error) {
    // A link spent meanwhile (code bad_reset_link) answers like a dead one.
    return refused(error);
  }
}

export default function ResetPassword({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const t = useT();
  const { token, live, badLink } = loaderData;
  const linkDead = !live || actionData?.message === badLink;
  return (
    <PublicCardPage title={t("passwordReset.resetTitle")}>
      {linkDead ? (
        <>
          <p role="alert" className="text-red-700">
            {badLink}
          </p>
          <p>
            <Link to={href("/forgot-password")} className="btn-primary w-full">
              {t("passwordReset.sendNew")}
            </Link>
          </p>
        </>
      ) : (
        <Form
          method="post"
          className="space-y-4"
          aria-label={t("passwordReset.resetTitle")}
        >
          <FormAlert message={formAlert(actionData)} />
          <input type="hidden" name="token" value={token} />
          <PasswordField
            label={t("passwordReset.newPassword")}
            name="password"
            id="reset-password"
            errors={actionData?.fieldErrors.password}
            isNew
          />
          <PasswordField
            label={t("passwordReset.confirmNew")}
            name="confirmPassword"
            id="reset-confirm-password"
            errors={actionData?.fieldErrors.confirmPassword}
            isNew
          />
          <button type="submit" className="btn-primary w-full">
            {t("passwordReset.set")}
          </button>
        </Form>
      )}
    </PublicCardPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("passwordReset.resetMetaTitle") },
];
