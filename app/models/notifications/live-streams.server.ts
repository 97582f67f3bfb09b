// The open event streams of this process (GET /api/events,
// docs/product-rules.md#live-pages, docs/decisions/1010). One poll per
// process, shared by all its streams: every LIVE_POLL_MS, while a stream is
// open, the rows after the cursor are read once and each goes to the
// streams of the person it names, and nobody else's. One heartbeat timer
// writes a comment line to every stream. Nothing travels in memory between
// processes: a change made by another process or machine reaches a stream
// here through its row in live_events.
import { livePollMs, liveHeartbeatMs, rateLimitsOn } from "~/utils/env.server";
import { onStopStarting } from "~/utils/stop-hooks.server";
import {
  latestLiveEventId,
  liveEventsAfter,
  liveEventsOfUser,
  type LiveEvent,
} from "./live-events.server";

/** Streams one person may hold open in one process (tabs, devices). */
export const MAX_STREAMS_PER_USER = 16;
/** The browser's wait before it reconnects a dropped stream. */
const RETRY_MS = 2_000;
const BATCH = 1_000;

export type LiveSink = {
  /** Writes SSE text; returns nothing, the stream queues it. */
  write: (text: string) => void;
  /** Ends the stream (the process is stopping). */
  end: () => void;
};

type Stream = { userId: number; seen: number; sink: LiveSink };

const byUser = new Map<number, Set<Stream>>();
let open = 0;
let cursor = 0;
let poll: NodeJS.Timeout | null = null;
let heartbeat: NodeJS.Timeout | null = null;
let stopping = false;
let stopHookSet = false;

/** The SSE text of one event: its row id is the event id (Last-Event-ID). */
export function formatLiveEvent(event: LiveEvent): string {
  const data =
    event.type === "bet"
      ? { type: event.type, betId: event.betId }
      : { type: event.type };
  return `id: ${event.id}\ndata: ${JSON.stringify(data)}\n\n`;
}

function deliver(events: LiveEvent[]) {
  // Grouped by person, so each stream gets one write per poll.
  const texts = new Map<number, LiveEvent[]>();
  for (const event of events) {
    if (!byUser.has(event.userId)) continue;
    let list = texts.get(event.userId);
    if (!list) texts.set(event.userId, (list = []));
    list.push(event);
  }
  for (const [userId, list] of texts) {
    for (const stream of byUser.get(userId) ?? []) {
      let text = "";
      for (const event of list)
        if (event.id > stream.seen) text += formatLiveEvent(event);
      if (text === "") continue;
      stream.seen = list[list.length - 1]!.id;
      stream.sink.write(text);
    }
  }
}

/** One read of the cursor query; exported for tests and the bench. */
export async function pollLiveEvents() {
  for (;;) {
    const rows = await liveEventsAfter(cursor, BATCH);
    if (rows.length === 0) return;
    cursor = rows[rows.length - 1]!.id;
    deliver(rows);
    if (rows.length < BATCH) return;
  }
}

async function start() {
  if (poll) return;
  cursor = Math.max(cursor, await latestLiveEventId());
  poll = setInterval(async () => {
    try {
      await pollLiveEvents();
    } catch (error) {
      console.error("live events: poll failed", error);
    }
  }, livePollMs());
  poll.unref();
  heartbeat = setInterval(() => {
    for (const streams of byUser.values())
      for (const stream of streams) stream.sink.write(": \n\n");
  }, liveHeartbeatMs());
  heartbeat.unref();
  if (!stopHookSet) {
    stopHookSet = true;
    onStopStarting(closeAllLiveStreams);
  }
}

function stopTimers() {
  if (poll) clearInterval(poll);
  if (heartbeat) clearInterval(heartbeat);
  poll = heartbeat = null;
}

export type OpenOutcome =
  | { ok: true; close: () => void }
  | { ok: false; reason: "stopping" | "too-many" };

/**
 * Opens a stream for `userId`. `afterId` (Last-Event-ID, or the page's own
 * cursor) is where the person's view was: what they missed since is written
 * at once. Returns the function that closes it (the client went away).
 */
export async function openLiveStream(
  userId: number,
  afterId: number | null,
  sink: LiveSink,
): Promise<OpenOutcome> {
  if (stopping) return { ok: false, reason: "stopping" };
  const mine = byUser.get(userId);
  if (rateLimitsOn && mine && mine.size >= MAX_STREAMS_PER_USER)
    return { ok: false, reason: "too-many" };
  await start();
  const stream: Stream = { userId, seen: cursor, sink };
  sink.write(`retry: ${RETRY_MS}\n: open\n\n`);
  if (afterId !== null && afterId < cursor) {
    const missed = await liveEventsOfUser(userId, afterId, cursor);
    let text = "";
    for (const event of missed) text += formatLiveEvent(event);
    if (text) sink.write(text);
  }
  // A stop that began while this stream was reading has already ended the
  // streams it knew: this one ends now too, or it would hold the stop back.
  if (stopping) {
    sink.end();
    if (open === 0) stopTimers();
    return { ok: false, reason: "stopping" };
  }
  // A client ahead of this process's cursor (it was on another process)
  // must not hear again what it has heard.
  if (afterId !== null && afterId > stream.seen) stream.seen = afterId;
  let set = mine;
  if (!set) byUser.set(userId, (set = new Set()));
  set.add(stream);
  open += 1;
  let closed = false;
  return {
    ok: true,
    close: () => {
      if (closed) return;
      closed = true;
      set.delete(stream);
      if (set.size === 0 && byUser.get(userId) === set) byUser.delete(userId);
      open -= 1;
      if (open === 0) stopTimers();
    },
  };
}

/** How many streams this process holds (metrics, tests, the bench). */
export function openLiveStreamCount() {
  return open;
}

/** The process is stopping: every stream ends and no new one opens. */
export function closeAllLiveStreams() {
  stopping = true;
  for (const streams of [...byUser.values()])
    for (const stream of [...streams]) stream.sink.end();
  stopTimers();
}
