import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { forgetAnswered } from "./offline-queue/kept-actions";
import { retryAfterMs } from "./answer-status";
import {
  CANNOT_WAIT,
  keepFormIfUnsent,
  outcomeOf,
  queuedSends,
  type QueuedSendOutcome,
} from "./unsent-forms";
import { markKey, unansweredState } from "./unsent-keys";

// IndexedDB is the browser's: what the queue is told to forget is watched.
vi.mock("./offline-queue/kept-actions", () => ({
  forgetAnswered: vi.fn(async () => {}),
}));

// docs/product-rules.md#shaky-connections: what a form says while its key
// is unanswered, for a page's own send and for the offline queue's.
// The manifest file's list of the pages whose forms wait: creating a bet
// does, paying does not.
vi.stubGlobal("window", {
  __fairshakeOffline: [
    { pattern: "/create-bet", offline: { label: "kept.createBet" } },
  ],
});
const WAITS = "/create-bet";
const DOES_NOT_WAIT = "/payment/1";

function post(key: string, path = DOES_NOT_WAIT) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body: new URLSearchParams({ idempotencyKey: key, title: "Derby" }),
  });
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("keepFormIfUnsent", () => {
  it("a page's send is 'sending' on its way, 'lost' when the network drops it, and forgotten once answered", async () => {
    const first = deferred<unknown>();
    const sending = keepFormIfUnsent({
      request: post("page-1"),
      serverAction: () => first.promise,
    });
    await tick();
    expect(unansweredState("page-1")).toBe("sending");
    first.reject(new TypeError("Failed to fetch"));
    const answer = (await sending) as { init?: { status?: number } };
    expect(answer.init?.status).toBe(503);
    expect(unansweredState("page-1")).toBe("lost");

    await keepFormIfUnsent({
      request: post("page-1"),
      serverAction: async () => ({ ok: true }),
    });
    expect(unansweredState("page-1")).toBeUndefined();
  });

  it("the queue's send keeps its key 'queued' while it goes, so the form still says it is saved", async () => {
    const outcomes: QueuedSendOutcome[] = [];
    const answer = deferred<unknown>();
    queuedSends.set("queue-1", (outcome) => outcomes.push(outcome));
    markKey("queue-1", "queued");
    const sending = keepFormIfUnsent({
      request: post("queue-1", WAITS),
      serverAction: () => answer.promise,
    });
    await tick();
    expect(unansweredState("queue-1")).toBe("queued");
    answer.resolve(new Response(null, { status: 302 }));
    await sending;
    expect(unansweredState("queue-1")).toBeUndefined();
    expect(outcomes).toEqual([{ kind: "sent" }]);
    queuedSends.delete("queue-1");
  });

  it("a queue's send the network drops stays 'queued' and tells the queue it was offline", async () => {
    const outcomes: QueuedSendOutcome[] = [];
    queuedSends.set("queue-2", (outcome) => outcomes.push(outcome));
    markKey("queue-2", "queued");
    await keepFormIfUnsent({
      request: post("queue-2", WAITS),
      serverAction: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    expect(unansweredState("queue-2")).toBe("queued");
    expect(outcomes).toEqual([{ kind: "offline" }]);
    queuedSends.delete("queue-2");
  });
});

describe("the offline queue's send", () => {
  it("to a route that does not wait is refused without being sent", async () => {
    const outcomes: QueuedSendOutcome[] = [];
    queuedSends.set("queue-3", (outcome) => outcomes.push(outcome));
    markKey("queue-3", "queued");
    let sent = false;
    await keepFormIfUnsent({
      request: post("queue-3"),
      serverAction: async () => {
        sent = true;
        return { paid: true };
      },
    });
    expect(sent).toBe(false);
    expect(outcomes).toEqual([{ kind: "refused", message: CANNOT_WAIT }]);
    queuedSends.delete("queue-3");
  });

  it("met by an error the server threw waits, and the page is left as it is", async () => {
    const outcomes: QueuedSendOutcome[] = [];
    queuedSends.set("queue-4", (outcome) => outcomes.push(outcome));
    markKey("queue-4", "queued");
    const answer = (await keepFormIfUnsent({
      request: post("queue-4", WAITS),
      serverAction: () => Promise.reject(new Error("Unexpected Server Error")),
    })) as { init?: { status?: number } };
    expect(answer.init?.status).toBe(503);
    expect(outcomes).toEqual([{ kind: "retry", afterMs: 0 }]);
    expect(unansweredState("queue-4")).toBe("queued");
    queuedSends.delete("queue-4");
  });
});

describe("outcomeOf", () => {
  it("waits on a 5xx, 408 or 429, honouring Retry-After, when the status was seen", () => {
    const thrown = new Error("Unexpected Server Error");
    for (const status of [500, 502, 503, 408, 429])
      expect(outcomeOf(thrown, { status, retryAfterMs: 7000 })).toEqual({
        kind: "retry",
        afterMs: 7000,
      });
  });

  it("is final only for a 4xx the server meant", () => {
    expect(
      outcomeOf(
        { ok: false, status: 409, message: "Someone else joined first." },
        { status: 409, retryAfterMs: 0 },
      ),
    ).toEqual({ kind: "refused", message: "Someone else joined first." });
    expect(
      outcomeOf(new ErrorResponseImpl(404, "Not Found", "Bet not found")),
    ).toEqual({ kind: "refused", message: "Bet not found" });
    expect(outcomeOf(new ErrorResponseImpl(503, "", "down"))).toEqual({
      kind: "retry",
      afterMs: 0,
    });
    expect(
      outcomeOf({ ok: false, status: 503, message: "briefly unavailable" }),
    ).toEqual({ kind: "retry", afterMs: 0 });
    expect(outcomeOf(new Error("no status"))).toEqual({
      kind: "retry",
      afterMs: 0,
    });
    expect(outcomeOf({ ok: true })).toEqual({ kind: "sent" });
  });
});

describe("retryAfterMs", () => {
  it("reads seconds or a date, and nothing as 0", () => {
    expect(retryAfterMs("5")).toBe(5000);
    expect(retryAfterMs(null)).toBe(0);
    expect(retryAfterMs("soon")).toBe(0);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
  });
});

describe("a kept form sent again by hand", () => {
  function sendAgain(key: string, serverAction: () => Promise<unknown>) {
    const controller = new AbortController();
    const request = new Request("http://localhost/create-bet", {
      method: "POST",
      body: new URLSearchParams({ idempotencyKey: key, title: "Derby" }),
      signal: controller.signal,
    });
    markKey(key, "queued");
    return { controller, sent: keepFormIfUnsent({ request, serverAction }) };
  }

  it("is forgotten by the queue once answered", async () => {
    vi.mocked(forgetAnswered).mockClear();
    await sendAgain("hand-1", async () => ({ ok: true })).sent;
    expect(forgetAnswered).toHaveBeenCalledWith("hand-1");
  });

  it("stays kept when its send is cancelled, or answered with an outage", async () => {
    vi.mocked(forgetAnswered).mockClear();
    // Cancelled: the fetcher was sent again, or the page left.
    const cancelled = sendAgain("hand-2", () => new Promise(() => {}));
    const aborted = sendAgain("hand-2", async () => {
      cancelled.controller.abort();
      throw new DOMException("The operation was aborted.", "AbortError");
    });
    aborted.controller.abort();
    await aborted.sent.catch(() => undefined);
    // An outage: the server threw a 503.
    await sendAgain("hand-3", async () => {
      throw new ErrorResponseImpl(503, "Service Unavailable", null);
    }).sent.catch(() => undefined);
    expect(forgetAnswered).not.toHaveBeenCalled();
  });
});
