// Reads GET /api/events as a browser's EventSource would: the answer's
// status and headers, each event (id and JSON data) and each comment line
// (the heartbeat), until closed. One per simulated tab.
import type { Client } from "./server";

export type StreamEvent = { id: string; data: Record<string, unknown> };

export type EventStream = {
  status: number;
  headers: Headers;
  events: StreamEvent[];
  comments: string[];
  /** Waits for an event matching `match` (already seen or still to come). */
  waitFor: (
    match: (event: StreamEvent) => boolean,
    timeoutMs?: number,
  ) => Promise<StreamEvent>;
  /** Waits for the `n`th comment line. */
  waitForComments: (n: number, timeoutMs?: number) => Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close: () => void;
};

export async function openEventStream(
  client: Client,
  { lastEventId, after }: { lastEventId?: string; after?: number } = {},
): Promise<EventStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { Accept: "text/event-stream" };
  if (client.cookieHeader) headers.Cookie = client.cookieHeader;
  if (lastEventId) headers["Last-Event-ID"] = lastEventId;
  const query = after === undefined ? "" : `?after=${after}`;
  const res = await fetch(`${client.baseUrl}/api/events${query}`, {
    headers,
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  let endedResolve = () => {};
  const ended = new Promise<void>((resolve) => (endedResolve = resolve));
  void (async () => {
    if (!res.body) return endedResolve();
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let id = "";
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line);
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (data) events.push({ id, data: JSON.parse(data) });
        }
        wake();
      }
    } catch {
      // aborted by close()
    }
    endedResolve();
    wake();
  })();
  const until = (ok: () => boolean, timeoutMs: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (ok()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${what} did not come: ${JSON.stringify(events)}`));
      }, timeoutMs);
      const check = () => {
        if (!ok()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    waitFor: async (match, timeoutMs = 3_000) => {
      await until(() => events.some(match), timeoutMs, "the event");
      return events.find(match)!;
    },
    waitForComments: (n, timeoutMs = 3_000) =>
      until(() => comments.length >= n, timeoutMs, `comment ${n}`),
    ended,
    close: () => controller.abort(),
  };
}

/**
 * An event stream's status and headers, read the way Client.request answers
 * (the body left unread: it never ends by itself), for suites that walk
 * every route.
 */
export async function headOfStream(
  client: Client,
  urlPath: string,
  headers: Record<string, string> = {},
) {
  const controller = new AbortController();
  const res = await fetch(client.baseUrl + urlPath, {
    headers: {
      ...headers,
      ...(client.cookieHeader ? { Cookie: client.cookieHeader } : {}),
    },
    signal: controller.signal,
    redirect: "manual",
  });
  const streaming = (res.headers.get("content-type") ?? "").startsWith(
    "text/event-stream",
  );
  const text = streaming ? "" : await res.text();
  controller.abort();
  return { status: res.status, headers: res.headers, text };
}
