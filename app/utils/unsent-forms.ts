// Nothing typed is lost (docs/product-rules.md#shaky-connections): when a
// form's submission fails because the network did, the page stays as it
// was and the form says so. A route opts in with
// `export const clientAction = (args: Route.ClientActionArgs) => keepFormIfUnsent(args);`; its forms
// are `KeyedForm`s (app/components/keyed-form.tsx), which show the notice.
import { useSyncExternalStore } from "react";
import { data } from "react-router";
import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";

export const NOT_SENT = "Not sent — check your connection and try again.";

// Keys sent and not yet answered: "sending" while a send is on its way,
// "lost" once the network lost it. A form owns such a key (it keeps it
// whatever revalidates) until a send of it gets an answer.
const unanswered = new Map<string, "sending" | "lost">();
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function mark(key: string, state: "sending" | "lost" | "answered") {
  if (state === "answered") unanswered.delete(key);
  else unanswered.set(key, state);
  listeners.forEach((listener) => listener());
}

/** Whether the last submission of the form with this key failed on the network. */
export function useUnsent(key: string) {
  return useSyncExternalStore(
    subscribe,
    () => unanswered.get(key) === "lost",
    () => false,
  );
}

/** Whether this key was sent and no send of it has been answered yet. */
export function useAwaitingAnswer(key: string) {
  return useSyncExternalStore(
    subscribe,
    () => unanswered.has(key),
    () => false,
  );
}

// The answer each action path last gave, so that a failed send leaves the
// route's actionData as it was (an echoed form keeps its key: no remount).
const lastAnswers = new Map<string, unknown>();

/**
 * A route's clientAction: sends the form to the server action; when the
 * network fails (no answer, a dropped connection, offline), answers what
 * the route last answered with status 503, so React Router neither
 * revalidates nor changes the page, and marks the form's key unsent. The
 * form keeps that key until a send of it is answered: sending again is
 * answered by the server's kept answer if the first copy did arrive.
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
  if (key) mark(key, "sending");
  try {
    const answer = await serverAction();
    lastAnswers.set(path, answer);
    if (key) mark(key, "answered");
    return answer;
  } catch (error) {
    // fetch rejects with a TypeError when the network fails; an error the
    // server sent (or its redirect) arrives decoded, as an answer.
    const lost = error instanceof TypeError;
    if (key) mark(key, lost ? "lost" : "answered");
    if (!lost) throw error;
    return data(lastAnswers.get(path) as T, { status: 503 });
  }
}
