// Nothing typed is lost (docs/product-rules.md#shaky-connections): when a
// form's submission fails because the network did, the page stays as it
// was and the form says so. A route opts in with
// `export const clientAction = (args: Route.ClientActionArgs) => keepFormIfUnsent(args);`; its forms
// are `KeyedForm`s (app/components/keyed-form.tsx), which show the notice.
import { useSyncExternalStore } from "react";
import { data } from "react-router";
import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";

export const NOT_SENT = "Not sent — check your connection and try again.";

const unsent = new Set<string>();
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** Whether the last submission of the form with this key failed on the network. */
export function useUnsent(key: string) {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unsent.has(key),
    () => false,
  );
}

/** Whether the last send with this key failed on the network (outside React). */
export function isUnsent(key: string) {
  return unsent.has(key);
}

// The answer each action path last gave, so that a failed send leaves the
// route's actionData as it was (an echoed form keeps its key: no remount).
const lastAnswers = new Map<string, unknown>();

/**
 * A route's clientAction: sends the form to the server action; when the
 * network fails (no answer, a dropped connection, offline), answers what
 * the route last answered with status 503, so React Router neither
 * revalidates nor changes the page, and marks the form's key unsent. The
 * key is not renewed: sending again is answered by the server's kept
 * answer if the first copy did arrive.
 */
export async function keepFormIfUnsent<T>({
  request,
  serverAction,
}: {
  request: Request;
  serverAction: () => Promise<T>;
}) {
  const path = new URL(request.url).pathname;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const sent = form?.get(IDEMPOTENCY_FIELD);
  const key = typeof sent === "string" ? sent : null;
  if (key && unsent.delete(key)) changed();
  try {
    const answer = await serverAction();
    lastAnswers.set(path, answer);
    return answer;
  } catch (error) {
    // fetch rejects with a TypeError when the network fails; an error the
    // server sent arrives decoded, as an Error of its own.
    if (!(error instanceof TypeError)) throw error;
    if (key) {
      unsent.add(key);
      changed();
    }
    return data(lastAnswers.get(path) as T, { status: 503 });
  }
}
