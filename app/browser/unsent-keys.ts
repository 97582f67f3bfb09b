// Where each sent form's key stands (docs/product-rules.md#shaky-connections):
// the page's sends (./unsent-forms.ts) and the offline queue's
// (./offline-queue/) mark it, and the forms read it to say "Not sent" or
// "Saved on this phone". Its own module, so both senders share it without
// importing each other.
import { useSyncExternalStore } from "react";

// Keys sent and not yet answered: "sending" while a page's send is on its
// way, "lost" once the network lost it, "queued" while the offline queue
// keeps it (app/browser/offline-queue/queue.ts), its own sends included:
// the form says it is saved until one is answered, however long a resend
// hangs. A form owns such a key (it keeps it whatever revalidates) until a
// send of it gets an answer.
type Unanswered = "sending" | "lost" | "queued";
const unanswered = new Map<string, Unanswered>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Marks a form's key; any sender (a page form, the offline queue) keeps the form on it until "answered". */
export function markKey(key: string, state: Unanswered | "answered") {
  if (state === "answered") unanswered.delete(key);
  else unanswered.set(key, state);
  listeners.forEach((listener) => listener());
}

/** Where a sent key stands; undefined once answered, or never sent. */
export function unansweredState(key: string): Unanswered | undefined {
  return unanswered.get(key);
}

/** Whether the last submission of the form with this key failed on the network. */
export function useUnsent(key: string) {
  return useSyncExternalStore(
    subscribe,
    () => unansweredState(key) === "lost",
    () => false,
  );
}

/** Whether the form with this key is kept on this device to be sent later. */
export function useQueuedOffline(key: string) {
  return useSyncExternalStore(
    subscribe,
    () => unansweredState(key) === "queued",
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
