import type { Route } from "./+types/events";
import { requireApiUser } from "~/models/accounts/session.server";
import { openLiveStream } from "~/models/notifications/live-streams.server";
import { api, jsonError } from "~/utils/api.server";

const encoder = new TextEncoder();

const STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // no-transform: the compression middleware leaves the stream alone (it
  // would hold events back to fill its buffer); no proxy may keep a copy.
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

/** Last-Event-ID (a reconnect), else `?after=` (the page's own cursor). */
function resumeFrom(request: Request): number | null {
  const raw =
    request.headers.get("Last-Event-ID") ??
    new URL(request.url).searchParams.get("after");
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  return Number(raw);
}

// GET /api/events: Server-Sent Events telling the signed-in person what
// changed among the things they may see, `{type: "bet", betId}`,
// `{type: "friends"}` or `{type: "activity"}`, so the page reloads its own
// data (docs/product-rules.md#live-pages, docs/decisions/1010).
export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    // A HEAD gets the head only: no stream is opened for it.
    if (request.method === "HEAD")
      return new Response(null, { headers: STREAM_HEADERS });
    let close = () => {};
    let refused: "stopping" | "too-many" | null = null;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          close();
          try {
            controller.close();
          } catch {
            // already closed by a cancel
          }
        };
        const outcome = await openLiveStream(user.id, resumeFrom(request), {
          write: (text) => {
            if (!ended) controller.enqueue(encoder.encode(text));
          },
          end,
        });
        if (!outcome.ok) {
          ended = true;
          refused = outcome.reason;
          return;
        }
        close = outcome.close;
        if (request.signal.aborted) end();
        else request.signal.addEventListener("abort", end, { once: true });
      },
      cancel() {
        close();
      },
    });
    if (refused === "too-many")
      return jsonError(429, "Too many open event streams", undefined, {
        "Retry-After": "30",
      });
    if (refused === "stopping")
      return jsonError(503, "The server is restarting", undefined, {
        "Retry-After": "2",
      });
    return new Response(body, { headers: STREAM_HEADERS });
  });
}
