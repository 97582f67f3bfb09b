// The offline queue (docs/product-rules.md#shaky-connections,
// docs/decisions/1045-offline-actions-queue.md): a write form whose send the
// network lost is kept in IndexedDB with its idempotencyKey, and sent by
// itself once the connection returns — oldest first, one at a time, under
// the key it was first sent with, by one tab at a time (a Web Lock). Loaded
// only when a form fails to send or something waits.
import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";
import { markKey, queuedSends, type QueuedSendOutcome } from "../unsent-forms";
import { queueOwner } from "./counts";
import { publishCounts } from "./keep";
import { exclusively, keptFor } from "./kept";
import { deleteKept, putKept, type KeptAction } from "./store";

export const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const TOO_OLD = "older than 7 days";
const MIN_RETRY_MS = 5_000;
// A send whose route never answers (its code could not load) counts as lost.
const SEND_TIMEOUT_MS = 60_000;

/** Sends a kept form through the router, as the form itself would (a fetcher). */
export type SubmitKept = (
  form: FormData,
  options: {
    method: "post";
    action: string;
    encType: KeptAction["encType"];
    navigate: false;
    fetcherKey: string;
  },
) => unknown;

let retryTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Sends this person's waiting actions, oldest first, one at a time. One tab
 * at a time: another tab holding the lock is already sending them, and
 * each action is read again under the lock, so a cancelled or sent one is
 * never sent.
 */
export async function sendWaiting(userId: number, submit: SubmitKept) {
  if (!navigator.onLine) return;
  await exclusively(async () => {
    for (;;) {
      if (queueOwner() !== userId) return; // signed out meanwhile
      const mine = await expireOld(await keptFor(userId));
      const next = mine.find((a) => a.state === "waiting");
      if (!next) break;
      const wait = (next.notBefore ?? 0) - Date.now();
      if (wait > 0) {
        scheduleRetry(userId, submit, wait);
        break;
      }
      // The owner must still be the one signed in: another tab may have
      // signed someone else in since this page loaded.
      const signedIn = await signedInUser();
      if (typeof signedIn === "number" && signedIn !== userId) {
        // Someone else signed in on this browser: never theirs to send or keep.
        for (const action of mine) await deleteKept(action.key);
        break;
      }
      if (signedIn !== userId) break;
      const outcome = await send(next, submit);
      if (outcome.kind === "offline") {
        // The network failed though the browser says online: try again later.
        if (navigator.onLine) scheduleRetry(userId, submit, MIN_RETRY_MS);
        break;
      }
      if (outcome.kind === "sent") await deleteKept(next.key);
      else if (outcome.kind === "refused")
        await putKept({ ...next, state: "refused", message: outcome.message });
      else {
        const after = Math.max(MIN_RETRY_MS, outcome.afterMs);
        await putKept({ ...next, notBefore: Date.now() + after });
        scheduleRetry(userId, submit, after);
        break;
      }
    }
  }, true);
  await publishCounts(userId);
}

/** Who the server says is signed in now; undefined when it cannot be asked. */
async function signedInUser() {
  try {
    const res = await fetch("/api/user", { credentials: "same-origin" });
    if (res.status === 401) return null;
    if (!res.ok) return undefined;
    return ((await res.json()) as { id?: number }).id;
  } catch {
    return undefined;
  }
}

function scheduleRetry(userId: number, submit: SubmitKept, ms: number) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void sendWaiting(userId, submit), ms);
}

async function expireOld(mine: KeptAction[]) {
  for (const action of mine)
    if (
      action.state === "waiting" &&
      Date.now() - action.createdAt > MAX_AGE_MS
    ) {
      action.state = "refused";
      action.message = TOO_OLD;
      await putKept(action);
    }
  return mine;
}

function send(action: KeptAction, submit: SubmitKept) {
  return new Promise<QueuedSendOutcome>((resolve) => {
    const timer = setTimeout(
      () => resolve({ kind: "retry", afterMs: 0 }),
      SEND_TIMEOUT_MS,
    );
    queuedSends.set(action.key, (outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    });
    const form = new FormData();
    for (const [name, value] of action.fields)
      form.append(name, typeof value === "string" ? value : new File([], ""));
    if (!form.has(IDEMPOTENCY_FIELD))
      form.append(IDEMPOTENCY_FIELD, action.key);
    markKey(action.key, "queued");
    submit(form, {
      method: "post",
      action: action.action,
      encType: action.encType,
      navigate: false,
      fetcherKey: `offline-${action.key}`,
    });
  }).finally(() => queuedSends.delete(action.key));
}
