import { Form, Link, redirect, useSearchParams, href } from "react-router";
import type { Route } from "./+types/forgot-password";
import { Field, FormAlert, formAlert } from "~/components/forms";
import { PublicCardPage } from "~/components/page-frames";
import { requestPasswordReset } from "~/models/accounts/password-reset.server";
import { formReply, pageFailure } from "~/framework/page.server";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { metaT, useT } from "~/components/i18n";
import { readFormData } from "~/framework/form-data.server";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";

// /forgot-password (docs/product-rules.md#accounts): a username or an email; the answer is always
// the same sentence, matched or not. No JavaScript, like /auth.
export const handle: RouteTraits = {
  messages: ["header", "passwordReset"],
  hydrate: false,
  offline: false,
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const login = form.get("login");
  try {
    await requestPasswordReset({
      login: typeof login === "string" ? login : undefined,
      clientAddress: context.get(clientAddressContext),
    });
  } catch (error) {
    const t = serverT(pageLanguage(request));
    return formReply(pageFailure(error), t("passwordReset.pleaseWait"), {
      login: typeof login === "string" ? login.slice(0, 254) : "",
    });
  }
  // Post/Redirect/Get: a reload does not ask again.
  throw redirect(`${href("/forgot-password")}?sent=1`);
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const sent = params.get("sent") === "1";
  return (
    <PublicCardPage title={t("passwordReset.forgotTitle")}>
      {sent ? (
        <p role="status" className="text-slate-700">
          {t("passwordReset.requested")}
        </p>
      ) : null}
      <Form
        method="post"
        className="space-y-4"
        aria-label={t("passwordReset.formLabel")}
      >
        <FormAlert
          title={t("passwordReset.pleaseWait")}
          message={formAlert(actionData)}
        />
        <p className="text-slate-700">{t("passwordReset.intro")}</p>
        <Field
          label={t("passwordReset.login")}
          errors={actionData?.fieldErrors.login}
          inputProps={{
            name: "login",
            id: "forgot-login",
            required: true,
            maxLength: 254,
            autoComplete: "username",
            autoCapitalize: "none",
            defaultValue: actionData?.login,
          }}
        />
        <button type="submit" className="btn-primary w-full">
          {t("passwordReset.send")}
        </button>
      </Form>
      <p className="text-sm">
        <Link to={href("/auth")} className="text-brand-700 underline">
          {t("passwordReset.backToLogin")}
        </Link>
      </p>
    </PublicCardPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("passwordReset.forgotMetaTitle") },
];
