// The registration form of /auth: plain fields that post, the refusal's
// messages beside them, what was typed (never the passwords) kept.
import { Form } from "react-router";
import { ErrorList, errorsOf, Field } from "~/components/forms";
import { useT } from "~/components/i18n";

/** What a refused form answers (`formFailure`), as these forms read it. */
export type RefusedForm = {
  message: string;
  fieldErrors: Record<string, string[]>;
  field?: string;
};

export function RegisterForm({
  returnTo,
  actionData,
}: {
  returnTo: string;
  actionData?: RefusedForm & { username: string; email: string };
}) {
  const t = useT();
  const errors = errorsOf(actionData);
  return (
    <Form method="post" className="space-y-4" aria-label={t("signIn.register")}>
      <input type="hidden" name="intent" value="register" />
      <input type="hidden" name="return_to" value={returnTo} />
      <ErrorList errors={errors[""]} />
      <Field
        label={t("signIn.username")}
        errors={errors.username}
        inputProps={{
          name: "username",
          id: "register-username",
          type: "text",
          defaultValue: actionData?.username,
          required: true,
          maxLength: 50,
          minLength: 3,
          autoComplete: "username",
          autoCapitalize: "none",
        }}
      />
      <Field
        label={t("signIn.email")}
        errors={errors.email}
        inputProps={{
          name: "email",
          id: "register-email",
          type: "email",
          defaultValue: actionData?.email,
          required: true,
          autoComplete: "email",
        }}
      />
      <Field
        label={t("signIn.password")}
        errors={errors.password}
        inputProps={{
          name: "password",
          id: "register-password",
          type: "password",
          required: true,
          minLength: 6,
          autoComplete: "new-password",
        }}
      />
      <Field
        label={t("signIn.confirmPassword")}
        errors={errors.confirmPassword}
        inputProps={{
          name: "confirmPassword",
          id: "register-confirm-password",
          type: "password",
          required: true,
          minLength: 6,
          autoComplete: "new-password",
        }}
      />
      <button type="submit" className="btn-primary w-full">
        {t("signIn.submitRegister")}
      </button>
    </Form>
  );
}
