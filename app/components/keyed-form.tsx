// The form of every page write (docs/product-rules.md#repeats): React
// Router's <Form> with the hidden idempotencyKey the server rendered, and
// the 'Not sent' notice when its last submission failed on the network.
import { useEffect, useId, useRef, useState } from "react";
import {
  Form,
  useLocation,
  useNavigation,
  useRouteLoaderData,
  type FormProps,
} from "react-router";
import { formIdempotencyKey, IDEMPOTENCY_FIELD } from "~/domain/idempotency";
import { isUnsent, NOT_SENT, useUnsent } from "~/utils/unsent-forms";

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

/**
 * The key of a <Form>: the server's, renewed in the browser once a send of
 * it got an answer. A refusal does not reload the root (so the server's
 * key stays), and a refusal that changed something keeps its key's answer:
 * the corrected form must go under a new key. A send the network lost
 * keeps its key, so sending again is answered by the server's kept answer.
 */
function useRenewedFormKey() {
  const serverKey = useFormKey();
  const [renewed, setRenewed] = useState<{ of: string; key: string } | null>(
    null,
  );
  const key = renewed?.of === serverKey ? renewed.key : serverKey;
  const navigation = useNavigation();
  const sending = navigation.formData?.get(IDEMPOTENCY_FIELD) === key;
  const sent = useRef(false);
  useEffect(() => {
    if (sending) sent.current = true;
    else if (navigation.state === "idle" && sent.current) {
      sent.current = false;
      if (!isUnsent(key)) setRenewed({ of: serverKey, key: freshKey() });
    }
  }, [sending, navigation.state, key, serverKey]);
  return key;
}

function freshKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export function KeyedForm({ children, method = "post", ...props }: FormProps) {
  const key = useRenewedFormKey();
  return (
    <Form method={method} {...props}>
      <IdempotencyKeyField value={key} />
      {children}
      <NotSentNotice formKey={key} />
    </Form>
  );
}
