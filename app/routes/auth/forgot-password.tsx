import { Form, Link, redirect, useSearchParams, href } from "react-router";
import type { Route } from "./+types/forgot-password";
import { Field, FormAlert, formAlert } from "~/components/forms";
import { PublicCardPage } from "~/components/page-frames";
import {
  requestPasswordReset,
  RESET_REQUESTED,
} from "~/models/accounts/password-reset.server";
import { formFailure } from "~/framework/page.server";
import { readFormData } from "~/framework/form-data.server";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";

// /forgot-password (docs/product-rules.md#accounts): a username or an email; the answer is always
// the same sentence, matched or not. No JavaScript, like /auth.
export const handle: RouteTraits = {
  messages: ["header"],
  hydrate: false,
  offline: false,
};

export function loader() {
  return { requested: RESET_REQUESTED };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const login = form.get("login");
  try {
    await requestPasswordReset({
      login: typeof login === "string" ? login : undefined,
      clientAddress: context.get(clientAddressContext),
    });
  } catch (error) {
    return formFailure(error, "Please wait", {
      login: typeof login === "string" ? login.slice(0, 254) : "",
    });
  }
  // Post/Redirect/Get: a reload does not ask again.
  throw redirect(`${href("/forgot-password")}?sent=1`);
}

export default function ForgotPassword({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const [params] = useSearchParams();
  const sent = params.get("sent") === "1";
  return (
    <PublicCardPage title="Forgot your password?">
      {sent ? (
        <p role="status" className="text-slate-700">
          {loaderData.requested}
        </p>
      ) : null}
      <Form method="post" className="space-y-4" aria-label="Reset password">
        <FormAlert title="Please wait" message={formAlert(actionData)} />
        <p className="text-slate-700">
          Enter your username or the email of your account. We will mail a link
          to choose a new password; it works for an hour.
        </p>
        <Field
          label="Username or email"
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
          Send reset link
        </button>
      </Form>
      <p className="text-sm">
        <Link to={href("/auth")} className="text-brand-700 underline">
          Back to login
        </Link>
      </p>
    </PublicCardPage>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Forgot password — Fairshake" },
];
