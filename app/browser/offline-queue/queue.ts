// The offline queue (docs/product-rules.md#shaky-connections,
// docs/decisions/1045-offline-actions-queue.md): a write form whose send the
// network lost is kept in IndexedDB with its idempotencyKey, and sent by
// itself once the connection returns — oldest first, one at a time, under
// the key it was first sent with, by one tab at a time (a Web Lock). Loaded
// only when a form fails to send or something waits.
import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";
import {
  CANNOT_WAIT,
  queuedSends,
  type QueuedSendOutcome,
} from "../unsent-forms";
import { markKey } from "../unsent-keys";
import { queueOwner } from "./counts";
import { publishCounts } from "./keep-for-later";
import { exclusively, keptFor } from "./kept-actions";
import { queueableRoute } from "./queueable";
import { deleteKept, putKept, type KeptAction } from "./store";

export const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
export const TOO_OLD = "older than 7 days";
const MIN_RETRY_MS = 5_000;
const MAX_RETRY_MS = 5 * 60_000;
// A send whose route never answers (its code could not load) counts as a try.
const SEND_TIMEOUT_MS = 60_000;
/** Tries a waiting action gets (a 5xx, 408, 429 or no answer) before it is 'Not sent'. */
export const MAX_TRIES = 8;
export const GAVE_UP = `the server did not take it after ${MAX_TRIES} tries`;

/** The wait after the `tries`-th failed try: 5 s, doubling, at most 5 minutes. */
export function backoffMs(tries: number) {
  return Math.min(MAX_RETRY_MS, MIN_RETRY_MS * 2 ** Math.max(0, tries - 1));
}

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
// Owner checks that could not be made in a row (the server out of reach).
let ownerCheckFailures = 0;

/**
 * Sends this person's waiting actions, oldest first, one at a time. One tab
 * at a time: another tab holding the lock is already sending them, and
 * each action is read again under the lock, so a cancelled or sent one is
 * never sent. Never rejects: a retry timer calls it too.
 */
export async function sendWaiting(userId: number, submit: SubmitKept) {
  if (!navigator.onLine) return;
  try {
    await exclusively(() => sendInOrder(userId, submit), true);
    await publishCounts(userId);
  } catch {
    // IndexedDB or the lock refused: the next trigger or retry tries again
    scheduleRetry(userId, submit, MIN_RETRY_MS);
  }
}

async function sendInOrder(userId: number, submit: SubmitKept) {
  for (;;) {
    if (queueOwner() !== userId) return; // signed out meanwhile
    const mine = await expireOld(await keptFor(userId));
    const next = mine.find((a) => a.state === "waiting");
    if (!next) return;
    // Only a route that waits is ever sent (never a payment, whatever an
    // entry names).
    if (!queueableRoute(next.action)) {
      await refuse(next, CANNOT_WAIT);
      continue;
    }
    const wait = (next.notBefore ?? 0) - Date.now();
    if (wait > 0) return scheduleRetry(userId, submit, wait);
    // The owner must still be the one signed in: another tab may have
    // signed someone else in since this page loaded.
    const signedIn = await signedInUser();
    if (typeof signedIn === "number" && signedIn !== userId) {
      // Someone else signed in on this browser: never theirs to send or keep.
      for (const action of mine) await deleteKept(action.key);
      return;
    }
    if (signedIn === undefined) {
      // The check could not be made (an outage): asked again later.
      ownerCheckFailures += 1;
      return scheduleRetry(userId, submit, backoffMs(ownerCheckFailures));
    }
    ownerCheckFailures = 0;
    if (signedIn !== userId) return; // signed out on the server
    const outcome = await send(next, submit);
    if (outcome.kind === "offline") {
      // The network failed though the browser says online: try again later.
      if (navigator.onLine) scheduleRetry(userId, submit, MIN_RETRY_MS);
      return;
    }
    if (outcome.kind === "sent") await deleteKept(next.key);
    else if (outcome.kind === "refused") await refuse(next, outcome.message);
    else {
      const tries = (next.tries ?? 0) + 1;
      // A head that cannot be sent steps aside: the rest go on.
      if (tries >= MAX_TRIES) {
        await refuse(next, GAVE_UP);
        continue;
      }
      const after = Math.max(backoffMs(tries), outcome.afterMs);
      await putKept({ ...next, tries, notBefore: Date.now() + after });
      return scheduleRetry(userId, submit, after);
    }
  }
}

/** Final: listed as 'Not sent: {message}', and its form says so no longer. */
async function refuse(action: KeptAction, message: string) {
  await putKept({ ...action, state: "refused", message });
  markKey(action.key, "answered");
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
  retryTimer = setTimeout(() => {
    sendWaiting(userId, submit).catch(() => {});
  }, ms);
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
