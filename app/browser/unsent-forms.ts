// Nothing typed is lost (docs/product-rules.md#shaky-connections): when a
// form's submission fails because the network did, the page stays as it
// was and the form says so. A route opts in with
// `export const clientAction = (args: Route.ClientActionArgs) => keepFormIfUnsent(args);`; its forms
// are `KeyedForm`s (app/components/keyed-form.tsx), which show the notice.
import { data, isRouteErrorResponse } from "react-router";
import { IDEMPOTENCY_FIELD } from "~/domain/idempotency";
import { watchAnswer } from "./answer-status";
import { keepForLater } from "./offline-queue/keep-for-later";
import { queueableRoute } from "./offline-queue/queueable";
import { forgetAnswered } from "./offline-queue/kept-actions";
import { markKey, unansweredState } from "./unsent-keys";

// The answer each action path last gave, so that a failed send leaves the
// route's actionData as it was (an echoed form keeps its key: no remount).
const lastAnswers = new Map<string, unknown>();

/** What a send by the offline queue came to (app/browser/offline-queue/queue.ts). */
export type QueuedSendOutcome =
  | { kind: "sent" }
  | { kind: "refused"; message: string }
  | { kind: "retry"; afterMs: number }
  | { kind: "offline" };

// The offline queue's sends in flight, by key: the route's clientAction
// tells the queue what the answer was (the fetcher that sent it only sees
// the data).
export const queuedSends = new Map<
  string,
  (outcome: QueuedSendOutcome) => void
>();

/**
 * A route's clientAction: sends the form to the server action; when the
 * network fails (no answer, a dropped connection, offline), answers what
 * the route last answered with status 503, so React Router neither
 * revalidates nor changes the page, and marks the form's key unsent. The
 * form keeps that key until a send of it is answered: sending again is
 * answered by the server's kept answer if the first copy did arrive.
 * When the route says its forms wait (`offline: { label }` in its
 * `handle`: every write but paying, passwords, the email and account data,
 * docs/product-rules.md#acting-offline) the unsent form is also kept on
 * the device and sent by itself once back online. The offline queue's own
 * send to a route that does not say so is refused here, never sent.
 */
export async function keepFormIfUnsent<T>({
  request,
  serverAction,
}: {
  request: Request;
  serverAction: () => Promise<T>;
}) {
  const path = new URL(request.url).pathname;
  const waits = queueableRoute(path) !== null;
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const sent = form?.get(IDEMPOTENCY_FIELD);
  const key = typeof sent === "string" ? sent : null;
  const queuedSend = key ? queuedSends.get(key) : undefined;
  const unchanged = () => data(lastAnswers.get(path) as T, { status: 503 });
  if (queuedSend && !waits) {
    markKey(key!, "answered");
    queuedSend({ kind: "refused", message: CANNOT_WAIT });
    return unchanged();
  }
  // The queue's send: what the server answered, status and Retry-After,
  // which the decoded answer may not carry.
  const seen = queuedSend ? watchAnswer(request.signal) : undefined;
  // The person sent a form again by hand while the queue kept it: once
  // answered, the queue has nothing left to send.
  const keptByQueue = !queuedSend && key && unansweredState(key) === "queued";
  // Only an answer the kept action is done with lets the queue forget it: a
  // send cancelled here (the fetcher sent again, the page left) got no
  // answer, and a 5xx, 408 or 429 means it still waits.
  const answered = (answer: unknown) => {
    if (!keptByQueue || request.signal.aborted) return;
    if (outcomeOf(answer).kind === "retry") return;
    void forgetAnswered(key).catch(() => {});
  };
  // The queue's own send stays "queued" (its notice holds while it goes).
  if (key && !queuedSend && !keptByQueue) markKey(key, "sending");
  // A queue's send given up on (timed out, sent again, the fetcher
  // aborted) says nothing when it ends: only the current send is heard.
  const stale = () =>
    request.signal.aborted || queuedSends.get(key!) !== queuedSend;
  try {
    const answer = await serverAction();
    if (queuedSend && stale()) return unchanged();
    if (queuedSend) {
      const outcome = outcomeOf(answer, seen?.());
      markKey(key!, outcome.kind === "retry" ? "queued" : "answered");
      queuedSend(outcome);
      // A refused or failed send leaves the page as it is: the list says it.
      if (outcome.kind !== "sent") return unchanged();
    } else if (key) markKey(key, "answered");
    lastAnswers.set(path, answer);
    answered(answer);
    return answer;
  } catch (error) {
    // fetch rejects with a TypeError when the network fails; an error the
    // server sent (or its redirect) arrives decoded, as an answer.
    const lost = error instanceof TypeError;
    if (!lost) answered(error);
    if (queuedSend && stale()) return unchanged();
    if (queuedSend) {
      const outcome = lost
        ? ({ kind: "offline" } as const)
        : outcomeOf(error, seen?.());
      markKey(
        key!,
        outcome.kind === "sent" || outcome.kind === "refused"
          ? "answered"
          : "queued",
      );
      queuedSend(outcome);
      // Only a redirect goes on to the router (the new bet, its toast): an
      // error the queue's send met never replaces the page the person is on.
      if (outcome.kind === "sent" && isRedirect(error)) throw error;
      return unchanged();
    } else if (key && lost && keptByQueue) {
      markKey(key, "queued");
    } else if (key && lost && waits && form) {
      const kept = await keepForLater(request, key, form);
      markKey(key, kept ? "queued" : "lost");
    } else if (key) markKey(key, lost ? "lost" : "answered");
    if (!lost) throw error;
    return unchanged();
  }
}

/** What the list says of a kept action whose route does not wait. */
export const CANNOT_WAIT = "this action cannot wait to be sent";

const isRedirect = (answer: unknown) =>
  answer instanceof Response && answer.status >= 300 && answer.status < 400;

/**
 * What a queued send came to. The status the server answered decides when
 * it was seen: a 5xx, 408 or 429 waits (honouring Retry-After), another 4xx
 * is final, anything else was sent. Unseen, the decoded answer decides: a
 * refused form answers `formFailure`'s shape (app/framework/page.server.ts),
 * a thrown error response carries its own status, and an error with none
 * (a bug or an outage the server did not word) waits: only a 4xx the server
 * meant is final.
 */
export function outcomeOf(
  answer: unknown,
  seen?: { status: number; retryAfterMs: number },
): QueuedSendOutcome {
  const status = seen?.status ?? statusOf(answer);
  if (status === undefined || status >= 500 || status === 408 || status === 429)
    return { kind: "retry", afterMs: seen?.retryAfterMs ?? 0 };
  if (status < 400) return { kind: "sent" };
  return { kind: "refused", message: messageOf(answer) };
}

/** The status a decoded answer carries; undefined for an error that says none. */
function statusOf(answer: unknown): number | undefined {
  if (answer instanceof Response) return answer.status;
  if (isRouteErrorResponse(answer)) return answer.status;
  if (answer instanceof Error) return undefined;
  const failure = answer as {
    ok?: unknown;
    status?: unknown;
    data?: unknown;
  } | null;
  return typeof failure?.status === "number" &&
    (failure.ok === false || "data" in failure)
    ? failure.status
    : 200;
}

function messageOf(answer: unknown) {
  const failure = answer as { message?: unknown; data?: unknown } | null;
  if (typeof failure?.message === "string" && failure.message)
    return failure.message;
  const payload = failure?.data as { message?: unknown } | string | undefined;
  if (typeof payload === "string" && payload) return payload;
  if (
    payload &&
    typeof payload === "object" &&
    typeof payload.message === "string"
  )
    return payload.message;
  return "The server refused it.";
}
