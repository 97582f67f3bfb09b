import { describe, expect, it } from "vitest";
import {
  keepFormIfUnsent,
  markKey,
  queuedSends,
  unansweredState,
  type QueuedSendOutcome,
} from "./unsent-forms";

// docs/product-rules.md#shaky-connections: what a form says while its key
// is unanswered, for a page's own send and for the offline queue's.
function post(key: string) {
  return new Request("http://localhost/create-bet", {
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
      request: post("queue-1"),
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
      request: post("queue-2"),
      serverAction: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    expect(unansweredState("queue-2")).toBe("queued");
    expect(outcomes).toEqual([{ kind: "offline" }]);
    queuedSends.delete("queue-2");
  });
});
