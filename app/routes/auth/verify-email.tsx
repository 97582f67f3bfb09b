import { Form, Link, redirect, href } from "react-router";
import type { Route } from "./+types/verify-email";
import { PublicCardPage } from "~/components/page-frames";
import {
  resendVerificationEmail,
  verifyEmailToken,
} from "~/models/accounts/email-verification.server";
import { formReply, pageFailure } from "~/framework/page.server";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { metaT, Rich, useT } from "~/components/i18n";
import { readFormData } from "~/framework/form-data.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { getUser, requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";

// /verify-email?token=… (docs/product-rules.md#accounts): the link from the mail shows a button;
// confirming is a POST, never a side effect of opening the link (a mail
// scanner that follows it changes nothing). No JavaScript, like /auth.
export const handle: RouteTraits = {
  messages: ["header", "confirmEmail"],
  hydrate: false,
  offline: false,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const user = await getUser({ request, context });
  return { token, signedIn: user !== null, verified: user?.emailVerified };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const intent = form.get("intent");
  if (intent === "resend") {
    const user = await requireUser({ request, context });
    const t = serverT(pageLanguage(request, user.language));
    const back = safeRedirect(form.get("return_to"), "/");
    try {
      await resendVerificationEmail(user);
    } catch (error) {
      return redirectWithToast(back, {
        title: t("confirmEmail.pleaseWait"),
        description: pageFailure(error).message,
        type: "error",
      });
    }
    return redirectWithToast(back, {
      title: t("confirmEmail.toastInbox"),
      description: t("confirmEmail.toastSent", { email: user.email }),
    });
  }
  if (intent === "verify") {
    const signedIn = await getUser({ request, context });
    const t = serverT(pageLanguage(request, signedIn?.language));
    try {
      await verifyEmailToken(form.get("token"));
    } catch (error) {
      return formReply(pageFailure(error), "");
    }
    return redirectWithToast(signedIn ? "/" : href("/auth"), {
      title: t("confirmEmail.toastConfirmed"),
      description: t("confirmEmail.toastConfirmedText"),
    });
  }
  throw redirect(href("/verify-email"));
}

export default function VerifyEmail({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const t = useT();
  const { token, signedIn, verified } = loaderData;
  return (
    <PublicCardPage title={t("confirmEmail.title")}>
      {actionData?.message ? (
        <p role="alert" className="text-red-700">
          {actionData.message}
        </p>
      ) : null}
      {token ? (
        <Form method="post" className="space-y-3">
          <p className="text-slate-700">{t("confirmEmail.intro")}</p>
          <input type="hidden" name="token" value={token} />
          <button className="btn-primary w-full" name="intent" value="verify">
            {t("confirmEmail.confirm")}
          </button>
        </Form>
      ) : verified ? (
        <p className="text-slate-700">{t("confirmEmail.confirmed")}</p>
      ) : signedIn ? (
        <Form method="post" className="space-y-3">
          <p className="text-slate-700">{t("confirmEmail.openLink")}</p>
          <button className="btn-secondary w-full" name="intent" value="resend">
            {t("confirmEmail.sendNew")}
          </button>
        </Form>
      ) : (
        <p className="text-slate-700">
          <Rich
            text={t("confirmEmail.signedOut")}
            tags={{ a: (words) => <Link to={href("/auth")}>{words}</Link> }}
          />
        </p>
      )}
    </PublicCardPage>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("confirmEmail.metaTitle") },
];
