import {
  getFormProps,
  getInputProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  Form,
  Link,
  redirect,
  useSearchParams,
  href,
} from "react-router";
import { z } from "zod";
import type { Route } from "./+types/auth";
import { ErrorList, Field, FormAlert, PasswordField } from "~/components/forms";
import { Logo } from "~/components/logo";
import { signIn, signUp } from "~/models/accounts/sign-in.server";
import { RegisterSchema } from "~/models/accounts/user.server";
import { errorsByField, pageFailure } from "~/utils/page.server";
import { safeRedirect } from "~/utils/safe-redirect";
import { getUser, startSession } from "~/models/accounts/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { clientAddressContext } from "~/utils/request-context.server";

const RegisterFormSchema = RegisterSchema.extend({
  confirmPassword: z.string({ error: "Passwords do not match" }),
}).refine((v) => v.password === v.confirmPassword, {
  message: "Passwords do not match",
  path: ["confirmPassword"],
});

// No JavaScript on this page (docs/product-rules.md#forms-and-messages): forms post, the server answers.
export const handle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getUser({ request, context })) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const intent = form.get("intent");
  const returnTo = safeRedirect(form.get("return_to"), "/");

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
          title: "Welcome back!",
          description: "You have successfully logged in.",
        },
        { headers },
      );
    } catch (error) {
      const failure = pageFailure(error);
      return data(
        {
          intent: "login" as const,
          result: {
            status: "error" as const,
            error: errorsByField(failure),
          },
          username: String(form.get("username") ?? ""),
        },
        { status: failure.status, headers: failure.headers },
      );
    }
  }

  if (intent === "register") {
    const submission = parseWithZod(form, { schema: RegisterFormSchema });
    if (submission.status !== "success") {
      return data(
        {
          intent: "register" as const,
          result: submission.reply({
            hideFields: ["password", "confirmPassword"],
          }),
        },
        { status: 400 },
      );
    }
    try {
      const user = await signUp({
        input: submission.value,
        clientAddress: context.get(clientAddressContext),
      });
      return redirectWithToast(
        returnTo,
        {
          title: "Welcome to Fairshake",
          description: "Your account has been created successfully.",
        },
        { headers: await startSession(request, user.id) },
      );
    } catch (error) {
      // A taken name or address carries its field (code username_taken,
      // email_taken): the message shows beside it, else above the form.
      const failure = pageFailure(error);
      return data(
        {
          intent: "register" as const,
          result: submission.reply({
            fieldErrors: errorsByField(failure),
            hideFields: ["password", "confirmPassword"],
          }),
        },
        { status: failure.status, headers: failure.headers },
      );
    }
  }

  return data({ intent: null, result: null }, { status: 400 });
}

export default function AuthPage({ actionData }: Route.ComponentProps) {
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
            {tab === "login" ? "Welcome back" : "Create your account"}
          </h1>
          <nav aria-label="Login or register" className="tabs mb-6">
            <Link
              to={tabHref("login")}
              className="tab"
              aria-current={tab === "login" ? "page" : undefined}
            >
              Login
            </Link>
            <Link
              to={tabHref("register")}
              className="tab"
              aria-current={tab === "register" ? "page" : undefined}
            >
              Register
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
              result={
                actionData?.intent === "register"
                  ? actionData.result
                  : undefined
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
  actionData?: {
    result: { error: Record<string, string[]> } | null;
    username?: string;
  };
}) {
  const errors = actionData?.result?.error ?? {};
  const formError = errors[""]?.[0];
  return (
    <Form method="post" className="space-y-4" aria-label="Login">
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="return_to" value={returnTo} />
      <FormAlert title="Login failed" message={formError} />
      <Field
        label="Username"
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
        label="Password"
        name="password"
        id="login-password"
        errors={errors.password}
      />
      <button type="submit" className="btn-primary w-full">
        Login
      </button>
      <p className="text-sm">
        <Link
          to={href("/forgot-password")}
          className="font-medium text-brand-700 underline"
        >
          Forgot password
        </Link>
      </p>
    </Form>
  );
}

type RegisterFields = {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
};

function RegisterForm({
  returnTo,
  result,
}: {
  returnTo: string;
  result?: SubmissionResult<string[]> | null;
}) {
  const [form, fields] = useForm<RegisterFields>({
    lastResult: result,
    shouldValidate: "onSubmit",
  });
  return (
    <Form
      method="post"
      className="space-y-4"
      aria-label="Register"
      {...getFormProps(form)}
      noValidate={false}
    >
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="return_to" value={returnTo} />
      <ErrorList errors={form.errors} />
      <Field
        label="Username"
        errors={fields.username.errors}
        inputProps={{
          ...getInputProps(fields.username, { type: "text" }),
          required: true,
          maxLength: 50,
          minLength: 3,
          autoComplete: "username",
          autoCapitalize: "none",
        }}
      />
      <Field
        label="Email"
        errors={fields.email.errors}
        inputProps={{
          ...getInputProps(fields.email, { type: "email" }),
          required: true,
          autoComplete: "email",
        }}
      />
      <Field
        label="Password"
        errors={fields.password.errors}
        inputProps={{
          ...getInputProps(fields.password, { type: "password" }),
          required: true,
          minLength: 6,
          autoComplete: "new-password",
        }}
      />
      <Field
        label="Confirm password"
        errors={fields.confirmPassword.errors}
        inputProps={{
          ...getInputProps(fields.confirmPassword, { type: "password" }),
          required: true,
          minLength: 6,
          autoComplete: "new-password",
        }}
      />
      <button type="submit" className="btn-primary w-full">
        Create account
      </button>
    </Form>
  );
}

function MarketingPanel() {
  const promises = [
    [
      "Safe and secure payments",
      "Settle up by card once you both agree on the result.",
    ],
    [
      "Bet on anything",
      "Sports, games, a dare between friends: you set the terms.",
    ],
    ["Easy sharing", "Send a 6-character code, a link or a QR code."],
    [
      "Fair dispute resolution",
      "Nobody wins on their own word: both sides approve the winner.",
    ],
  ];
  return (
    <aside
      className="hidden flex-col justify-center bg-brand-800 p-12 text-white lg:flex"
      aria-label="About Fairshake"
    >
      <h2 className="mb-8 text-4xl font-bold">Bet with Friends, Not Bookies</h2>
      <ul className="space-y-6">
        {promises.map(([title, text]) => (
          <li key={title}>
            <p className="text-lg font-semibold">{title}</p>
            <p className="text-brand-100">{text}</p>
          </li>
        ))}
      </ul>
    </aside>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Login or register · Fairshake" },
];
