import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { Form, Link, redirect, useSearchParams, href } from "react-router";
import { z } from "zod";
import { pageLanguage } from "~/framework/language.server";
import { serverT } from "~/framework/catalogs.server";
import { metaT, useT } from "~/components/i18n";
import { pageWords } from "~/framework/page-words.server";
import type { Route } from "./+types/auth";
import { errorsOf, Field, FormAlert, PasswordField } from "~/components/forms";
import { Logo } from "~/components/logo";
import { MarketingPanel } from "~/components/marketing-panel";
import { RegisterForm, type RefusedForm } from "./register-form";
import { signIn, signUp } from "~/models/accounts/sign-in.server";
import { RegisterSchema } from "~/models/accounts/user-input.server";
import { invalid, type FieldErrors } from "~/utils/errors";
import { formReply, pageFailure } from "~/framework/page.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { getUser, startSession } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/framework/toast.server";
import { readFormData } from "~/framework/form-data.server";
import { clientAddressContext } from "~/framework/request-context.server";
import { useNonce } from "~/framework/nonce";
// The passkey module, bundled on its own (with @simplewebauthn/browser) and
// named by its hashed URL: the page loads it only where the browser has
// WebAuthn (docs/decisions/1080-passkeys.md).
import passkeyModuleUrl from "~/browser/passkey-sign-in.ts?worker&url";
import type { RouteTraits } from "~/domain/route-traits";

const RegisterFormSchema = RegisterSchema.extend({
  confirmPassword: z.string({ error: "Passwords do not match" }),
}).refine((v) => v.password === v.confirmPassword, {
  message: "Passwords do not match",
  path: ["confirmPassword"],
});

// No React on this page (docs/product-rules.md#forms-and-messages): forms post, the server
// answers. Its one script is the passkey module's loader (docs/product-rules.md#passkeys).
// Signing in and up make the session a key belongs to: outside the key
// rule, never kept offline (a password is typed).
export const handle: RouteTraits = {
  messages: ["signIn"],
  hydrate: false,
  session: "starts",
  offline: false,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getUser({ request, context })) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const intent = form.get("intent");
  const returnTo = safeRedirect(form.get("return_to"), "/");
  // Nobody is signed in yet: the picker's cookie, else the browser's language.
  const language = pageLanguage(request);
  const t = serverT(language);
  /** A refused form, its words in the page's language. */
  const refused = <Extra extends object>(
    error: unknown,
    title: string,
    extra: Extra,
  ) => formReply(pageFailure(error), pageWords(title), extra);

  if (intent === "login") {
    try {
      const { user, deviceCookie } = await signIn({
        input: {
          username: form.get("username") ?? undefined,
          password: form.get("password") ?? undefined,
        },
        clientAddress: context.get(clientAddressContext),
        cookieHeader: request.headers.get("Cookie"),
      });
      const headers = await startSession(request, user.id);
      headers.append("Set-Cookie", deviceCookie);
      return redirectWithToast(
        returnTo,
        {
          title: t("signIn.toastWelcomeBack"),
          description: t("signIn.toastLoggedIn"),
        },
        { headers },
      );
    } catch (error) {
      return refused(error, t("signIn.loginFailed"), {
        intent: "login" as const,
        username: String(form.get("username") ?? ""),
      });
    }
  }

  if (intent === "register") {
    // What the person typed comes back, never the passwords.
    const typed = {
      intent: "register" as const,
      username: String(form.get("username") ?? ""),
      email: String(form.get("email") ?? ""),
    };
    const submission = parseWithZod(form, { schema: RegisterFormSchema });
    if (submission.status !== "success") {
      const errors: FieldErrors = {};
      for (const [name, list] of Object.entries(submission.error ?? {}))
        if (list?.length) errors[name] = list;
      return refused(invalid("Check the form", errors), "", typed);
    }
    try {
      const user = await signUp({
        input: submission.value,
        clientAddress: context.get(clientAddressContext),
        acceptLanguage: request.headers.get("Accept-Language"),
        language, // the picker's, else the browser's
      });
      return redirectWithToast(
        returnTo,
        {
          title: t("signIn.toastWelcome"),
          description: t("signIn.toastCreated"),
        },
        { headers: await startSession(request, user.id) },
      );
    } catch (error) {
      // A taken name or address carries its field (code username_taken,
      // email_taken): the message shows beside it, else above the form.
      return refused(error, "", typed);
    }
  }

  return refused(invalid("Unknown action"), "Error", { intent: null });
}

export default function AuthPage({ actionData }: Route.ComponentProps) {
  const t = useT();
  const [params] = useSearchParams();
  const tab = params.get("tab") === "register" ? "register" : "login";
  const returnTo = params.get("return_to") ?? "";
  const tabHref = (t: string) => {
    const next = new URLSearchParams(params);
    if (t === "register") next.set("tab", "register");
    else next.delete("tab");
    const q = next.toString();
    return q ? `${href("/auth")}?${q}` : href("/auth");
  };

  return (
    <div className="grid min-h-dvh lg:grid-cols-2">
      <main className="flex flex-col justify-center px-4 py-8 sm:px-8">
        <div className="mx-auto w-full max-w-sm">
          <div className="mb-6 flex justify-center">
            <Logo />
          </div>
          <h1 className="mb-4 text-center text-2xl font-bold">
            {tab === "login"
              ? t("signIn.welcomeBack")
              : t("signIn.createAccount")}
          </h1>
          <nav aria-label={t("signIn.tabs")} className="tabs mb-6">
            <Link
              to={tabHref("login")}
              className="tab"
              aria-current={tab === "login" ? "page" : undefined}
            >
              {t("signIn.login")}
            </Link>
            <Link
              to={tabHref("register")}
              className="tab"
              aria-current={tab === "register" ? "page" : undefined}
            >
              {t("signIn.register")}
            </Link>
          </nav>
          {tab === "login" ? (
            <LoginForm
              returnTo={returnTo}
              actionData={
                actionData?.intent === "login" ? actionData : undefined
              }
            />
          ) : (
            <RegisterForm
              returnTo={returnTo}
              actionData={
                actionData?.intent === "register" ? actionData : undefined
              }
            />
          )}
        </div>
      </main>
      <MarketingPanel />
    </div>
  );
}

function LoginForm({
  returnTo,
  actionData,
}: {
  returnTo: string;
  actionData?: RefusedForm & { username: string };
}) {
  const t = useT();
  const errors = errorsOf(actionData);
  const formError = errors[""]?.[0];
  return (
    <Form method="post" className="space-y-4" aria-label={t("signIn.login")}>
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="return_to" value={returnTo} />
      <FormAlert title={t("signIn.loginFailed")} message={formError} />
      <Field
        label={t("signIn.username")}
        errors={errors.username}
        inputProps={{
          name: "username",
          id: "login-username",
          required: true,
          autoComplete: "username",
          defaultValue: actionData?.username,
          autoCapitalize: "none",
        }}
      />
      <PasswordField
        label={t("signIn.password")}
        name="password"
        id="login-password"
        errors={errors.password}
      />
      <button type="submit" className="btn-primary w-full">
        {t("signIn.login")}
      </button>
      <p className="text-sm">
        <Link
          to={href("/forgot-password")}
          className="font-medium text-brand-700 underline"
        >
          {t("signIn.forgot")}
        </Link>
      </p>
      <PasskeySignIn />
    </Form>
  );
}

/**
 * 'Sign in with a passkey': a <template> the passkey module brings out, so
 * without JavaScript (or without WebAuthn) there is no button. The loader
 * is one line, run with the page's nonce.
 */
function PasskeySignIn() {
  const t = useT();
  const nonce = useNonce();
  // Reached inside the app (after signing out), React renders this page and
  // the inline script does not run: the effect starts the module instead.
  useEffect(() => {
    const again = (window as { fairshakePasskeySignIn?: () => void })
      .fairshakePasskeySignIn;
    if (again) again();
    else if (window.PublicKeyCredential)
      void import(/* @vite-ignore */ passkeyModuleUrl);
  }, []);
  const loader = `if(window.PublicKeyCredential)import(${JSON.stringify(passkeyModuleUrl)})`;
  return (
    <>
      <template id="passkey-sign-in">
        <div className="space-y-2 border-t border-slate-200 pt-4">
          <button type="button" className="btn-secondary w-full">
            {t("signIn.passkey")}
          </button>
          <p
            id="passkey-status"
            role="status"
            className="text-sm text-red-700"
          ></p>
        </div>
      </template>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: loader }} />
    </>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches)("signIn.metaTitle") },
];
