// The form of every page write (docs/product-rules.md#repeats): React
// Router's <Form> with the hidden idempotencyKey the server rendered (kept
// while a send of it is unanswered), and the 'Not sent' notice when its
// last submission failed on the network.
import { useEffect, useId, useState } from "react";
import {
  Form,
  useLocation,
  useNavigation,
  useRouteLoaderData,
  type FormProps,
} from "react-router";
import { formIdempotencyKey, IDEMPOTENCY_FIELD } from "~/domain/idempotency";
import { useT } from "~/components/i18n";
import {
  useAwaitingAnswer,
  useQueuedOffline,
  useUnsent,
} from "~/browser/unsent-keys";

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

/** Shown beside a form's button when its last send failed on the network, or it waits on this device. */
export function NotSentNotice({ formKey }: { formKey: string }) {
  const t = useT();
  const unsent = useUnsent(formKey);
  const queued = useQueuedOffline(formKey);
  if (queued)
    return (
      <p role="status" className="text-sm text-amber-700" data-saved-offline="">
        {t("offline.saved")}
      </p>
    );
  if (!unsent) return null;
  return (
    <p role="alert" className="field-error" data-not-sent="">
      {t("offline.notSent")}
    </p>
  );
}

/**
 * The key a form sends. Until it is sent, the server's (renewed at every
 * render of the root). From the moment it is sent until a send of it gets
 * an answer, the form owns it: a revalidation (a live event, the tab
 * brought back, a reconnect) draws a new seed, and a form whose answer was
 * lost that took the new key would lose its 'Not sent' notice, and sending
 * again would do the change a second time. Once answered, a fresh key: a
 * refusal does not reload the root, and a refusal that changed something
 * keeps its key's answer, so the corrected form must go under a new key.
 * `submission` is what sends the form: the navigation, or its fetcher.
 */
export function useOwnedFormKey(submission: { formData?: FormData }) {
  const serverKey = useFormKey();
  const [owned, setOwned] = useState<string | null>(null);
  const [renewed, setRenewed] = useState<{ of: string; key: string } | null>(
    null,
  );
  const key = owned ?? (renewed?.of === serverKey ? renewed.key : serverKey);
  const sending = submission.formData?.get(IDEMPOTENCY_FIELD) === key;
  const awaitingAnswer = useAwaitingAnswer(key);
  useEffect(() => {
    // Either says it was sent: a send the network fails at once (offline)
    // may come and go before a render shows the navigation submitting.
    if (sending || awaitingAnswer) setOwned(key);
    else if (owned !== null) {
      setOwned(null);
      setRenewed({ of: serverKey, key: freshKey() });
    }
  }, [sending, awaitingAnswer, key, owned, serverKey]);
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
  const key = useOwnedFormKey(useNavigation());
  return (
    <Form method={method} {...props}>
      <IdempotencyKeyField value={key} />
      {children}
      <NotSentNotice formKey={key} />
    </Form>
  );
}
