import type { Route } from "./+types/events";
import {
  requireApiUser,
  sessionHashOf,
} from "~/models/accounts/session.server";
import { openLiveStream } from "~/models/notifications/live-streams.server";
import { api, jsonError } from "~/framework/api.server";

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
// data (docs/product-rules.md#live-pages, docs/decisions/1010-live-pages-over-server-sent-events.md).
export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    // A HEAD gets the head only: no stream is opened for it.
    if (request.method === "HEAD")
      return new Response(null, { headers: STREAM_HEADERS });
    // The stream is opened (and may be refused) before the answer is
    // chosen: a refusal is a 429 or 503, never a 200 that stays silent.
    // What it writes before the body exists waits in `early`.
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const early: string[] = [];
    let ended = false;
    // Set once the stream is open; `end` may run before that (a stop).
    const registration = { close: () => {} };
    const end = () => {
      if (ended) return;
      ended = true;
      registration.close();
      try {
        controller?.close();
      } catch {
        // already closed by a cancel
      }
    };
    // The stream ends with the session it was opened with (a sign-out, a
    // sign-out everywhere else, the account closed).
    const session = sessionHashOf(request)!;
    const outcome = await openLiveStream(
      user.id,
      resumeFrom(request),
      {
        write: (text) => {
          if (ended) return;
          if (controller) controller.enqueue(encoder.encode(text));
          else early.push(text);
        },
        end,
      },
      session,
    );
    if (!outcome.ok && outcome.reason === "too-many")
      return jsonError(429, "Too many open event streams", undefined, {
        "Retry-After": "30",
      });
    if (!outcome.ok)
      return jsonError(503, "The server is restarting", undefined, {
        "Retry-After": "2",
      });
    registration.close = outcome.close;
    if (ended) outcome.close();
    const body = new ReadableStream<Uint8Array>({
      start(streamController) {
        controller = streamController;
        for (const text of early.splice(0))
          streamController.enqueue(encoder.encode(text));
        if (ended) streamController.close();
        else if (request.signal.aborted) end();
        else request.signal.addEventListener("abort", end, { once: true });
      },
      cancel() {
        ended = true;
        outcome.close();
      },
    });
    return new Response(body, { headers: STREAM_HEADERS });
  });
}
