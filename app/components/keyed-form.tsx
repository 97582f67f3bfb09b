// The form of every page write (docs/product-rules.md#repeats): React
// Router's <Form> with the hidden idempotencyKey the server rendered, and
// the 'Not sent' notice when its last submission failed on the network.
import { useId } from "react";
import {
  Form,
  useLocation,
  useRouteLoaderData,
  type FormProps,
} from "react-router";
import { formIdempotencyKey, IDEMPOTENCY_FIELD } from "~/domain/idempotency";
import { NOT_SENT, useUnsent } from "~/utils/unsent-forms";

/** This render's key for the form at this place (the root loader's seed). */
export function useFormKey() {
  const root = useRouteLoaderData("root") as
    { formKeySeed?: string } | undefined;
  const { pathname } = useLocation();
  const place = useId();
  return formIdempotencyKey(root?.formKeySeed ?? "", pathname, place);
}

/** The hidden field alone, for a form that is not a KeyedForm (a fetcher's). */
export function IdempotencyKeyField({ value }: { value: string }) {
  return <input type="hidden" name={IDEMPOTENCY_FIELD} value={value} />;
}

/** Shown beside a form's button when its last send failed on the network. */
export function NotSentNotice({ formKey }: { formKey: string }) {
  const unsent = useUnsent(formKey);
  if (!unsent) return null;
  return (
    <p role="alert" className="field-error" data-not-sent="">
      {NOT_SENT}
    </p>
  );
}

export function KeyedForm({ children, method = "post", ...props }: FormProps) {
  const key = useFormKey();
  return (
    <Form method={method} {...props}>
      <IdempotencyKeyField value={key} />
      {children}
      <NotSentNotice formKey={key} />
    </Form>
  );
}
