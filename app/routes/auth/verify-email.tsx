import { Form, Link, redirect, href } from "react-router";
import type { Route } from "./+types/verify-email";
import { PublicCardPage } from "~/components/page-frames";
import {
  resendVerificationEmail,
  verifyEmailToken,
} from "~/models/accounts/email-verification.server";
import { formFailure, pageFailure } from "~/framework/page.server";
import { readFormData } from "~/framework/form-data.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { getUser, requireUser } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import type { RouteTraits } from "~/domain/route-traits";

// /verify-email?token=… (docs/product-rules.md#accounts): the link from the mail shows a button;
// confirming is a POST, never a side effect of opening the link (a mail
// scanner that follows it changes nothing). No JavaScript, like /auth.
export const handle: RouteTraits = {
  messages: ["header"],
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
    const back = safeRedirect(form.get("return_to"), "/");
    try {
      await resendVerificationEmail(user);
    } catch (error) {
      return redirectWithToast(back, {
        title: "Please wait",
        description: pageFailure(error).message,
        type: "error",
      });
    }
    return redirectWithToast(back, {
      title: "Check your inbox",
      description: `We sent a new link to ${user.email}.`,
    });
  }
  if (intent === "verify") {
    try {
      await verifyEmailToken(form.get("token"));
    } catch (error) {
      return formFailure(error, "");
    }
    const signedIn = (await getUser({ request, context })) !== null;
    return redirectWithToast(signedIn ? "/" : href("/auth"), {
      title: "Email confirmed",
      description: "Fairshake can now tell you when a bet needs you.",
    });
  }
  throw redirect(href("/verify-email"));
}

export default function VerifyEmail({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { token, signedIn, verified } = loaderData;
  return (
    <PublicCardPage title="Confirm your email">
      {actionData?.message ? (
        <p role="alert" className="text-red-700">
          {actionData.message}
        </p>
      ) : null}
      {token ? (
        <Form method="post" className="space-y-3">
          <p className="text-slate-700">
            Confirm this address to hear from Fairshake when a bet needs you.
          </p>
          <input type="hidden" name="token" value={token} />
          <button className="btn-primary w-full" name="intent" value="verify">
            Confirm my email
          </button>
        </Form>
      ) : verified ? (
        <p className="text-slate-700">Your email address is confirmed.</p>
      ) : signedIn ? (
        <Form method="post" className="space-y-3">
          <p className="text-slate-700">
            Open the link we mailed you to confirm your address.
          </p>
          <button className="btn-secondary w-full" name="intent" value="resend">
            Send a new link
          </button>
        </Form>
      ) : (
        <p className="text-slate-700">
          Open the link from your mail, or{" "}
          <Link to={href("/auth")}>sign in</Link> to ask for a new one.
        </p>
      )}
    </PublicCardPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your email — Fairshake" },
];
