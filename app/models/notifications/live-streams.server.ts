// The open event streams of this process (GET /api/events,
// docs/product-rules.md#live-pages,
// docs/decisions/1010-live-pages-over-server-sent-events.md). One poll per
// process, shared by all its streams: every LIVE_POLL_MS, while a stream is
// open, the new rows are read once and each goes to the streams of the
// person it names, and nobody else's. One heartbeat timer writes a comment
// line to every stream. Nothing travels in memory between processes: a
// change made by another process or machine reaches a stream here through
// its row in live_events.
//
// The cursor never skips a row whose transaction commits after a higher id
// was read: ids not seen below the cursor are read again until the
// transaction that may hold them has surely ended
// (docs/decisions/1036-the-live-cursor-never-skips-an-event.md).
import { replicaStanding } from "~/db/replica-standing.server";
import { rateLimitsOn } from "~/utils/env.server";
import { livePollMs, liveHeartbeatMs } from "~/utils/env-settings.server";
import { onStopStarting } from "~/utils/stop-hooks.server";
import type { LiveMessage } from "~/domain/live-message";
import type { SQL } from "drizzle-orm";
import {
  LIVE_LOOK_BACK_IDS,
  liveCursorStart,
  liveEventsOfUser,
  liveSessionHashes,
  readLiveEvents,
  type LiveEvent,
  type LiveRead,
} from "./live-events.server";

/** Streams one person may hold open in one process (tabs, devices). */
export const MAX_STREAMS_PER_USER = 16;
/** The browser's wait before it reconnects a dropped stream. */
const RETRY_MS = 2_000;
const BATCH = 1_000;
/** How often, at most, the sessions behind the open streams are looked up. */
const SESSION_CHECK_MS = 2_000;

export type LiveSink = {
  /** Writes SSE text; returns nothing, the stream queues it. */
  write: (text: string) => void;
  /** Ends the stream (its session ended, or the process is stopping). */
  end: () => void;
};

type Stream = {
  userId: number;
  /** The hash of the session it was opened with: it ends with it. */
  session: string;
  /** Ids up to this one the client had when it came: never sent again. */
  floor: number;
  sink: LiveSink;
  /** Events that came while it was catching up; null once it is open. */
  held: LiveEvent[] | null;
};

const byUser = new Map<number, Set<Stream>>();
let open = 0;
/** The newest id this process has read. */
let cursor = 0;
/**
 * Ids below the cursor not seen yet (a transaction may still commit them),
 * each with the xmax of the snapshot that first missed it: once a read's
 * xmin reaches that, the transaction has ended and the id is settled.
 */
const unseen = new Map<number, bigint>();
let poll: NodeJS.Timeout | null = null;
let heartbeat: NodeJS.Timeout | null = null;
/** The one start under way: every opener waits on it, none starts another. */
let starting: Promise<void> | null = null;
/** Reads run one after another, never side by side. */
let reads: Promise<void> = Promise.resolve();
let ticking = false;
let lastSessionCheck = 0;
let stopping = false;
let stopHookSet = false;

/**
 * The SSE text of one event. Its id is where a reconnect resumes: the row's
 * id, or lower while a lower id is still in flight, so a client that
 * resumes from it also gets that one when it commits.
 */
export function formatLiveEvent(event: LiveEvent, resumeId = event.id): string {
  return `id: ${resumeId}\ndata: ${JSON.stringify(liveMessage(event))}\n\n`;
}

function liveMessage(event: LiveEvent): LiveMessage {
  // A bet's event always names its bet (announceBet writes it).
  if (event.type === "bet") return { type: "bet", betId: event.betId! };
  return { type: event.type };
}

/** The highest id below which nothing is in flight, as far as this process knows. */
function settledUpTo(): number {
  let upTo = cursor;
  for (const id of unseen.keys()) if (id <= upTo) upTo = id - 1;
  return upTo;
}

function writeTo(stream: Stream, events: LiveEvent[], settled: number) {
  let text = "";
  for (const event of events)
    if (event.id > stream.floor)
      text += formatLiveEvent(event, Math.min(event.id, settled));
  if (text) stream.sink.write(text);
}

function deliver(events: LiveEvent[]) {
  if (events.length === 0) return;
  const settled = settledUpTo();
  // Grouped by person, so each stream gets one write per poll.
  const byPerson = new Map<number, LiveEvent[]>();
  for (const event of events) {
    if (!byUser.has(event.userId)) continue;
    let list = byPerson.get(event.userId);
    if (!list) byPerson.set(event.userId, (list = []));
    list.push(event);
  }
  for (const [userId, list] of byPerson)
    for (const stream of byUser.get(userId) ?? []) {
      if (stream.held) stream.held.push(...list);
      else writeTo(stream, list, settled);
    }
}

/** Forgets the unseen ids whose transactions had all ended when `read` ran. */
function forgetSettled(read: Pick<LiveRead, "xmin">) {
  for (const [id, mark] of unseen)
    if (read.xmin === null || mark <= read.xmin) unseen.delete(id);
}

/** Reads one batch; true when there may be more. */
async function readBatch(): Promise<boolean> {
  const read = await readLiveEvents(cursor, [...unseen.keys()], BATCH);
  const fresh: LiveEvent[] = [];
  let newest = cursor;
  for (const event of read.events) {
    if (event.id <= cursor) {
      // A late commit: an id this process had missed.
      if (unseen.delete(event.id)) fresh.push(event);
      continue;
    }
    // Ids skipped on the way up are in flight or rolled back: watched.
    const from = Math.max(newest + 1, event.id - LIVE_LOOK_BACK_IDS);
    for (let id = from; id < event.id; id++) unseen.set(id, read.xmax ?? 0n);
    newest = event.id;
    fresh.push(event);
  }
  cursor = newest;
  const more = read.events.length === BATCH;
  // A full batch may have left some unseen ids unread: judged next time.
  if (!more) forgetSettled(read);
  deliver(fresh);
  return more;
}

/** Reads every new row once; exported for tests and the bench. */
export function pollLiveEvents(): Promise<void> {
  const next = reads.then(async () => {
    while (await readBatch());
  });
  reads = next.catch(() => undefined);
  return next;
}

/** Ends every stream whose session has ended: one query for them all. */
async function endStreamsOfEndedSessions() {
  const sessions = new Set<string>();
  for (const streams of byUser.values())
    for (const stream of streams) sessions.add(stream.session);
  if (sessions.size === 0) return;
  // Outside the primary region, a replica too far behind cannot say that a
  // session ended: its streams end, and their reconnects are answered in
  // the primary region until it catches up.
  const standing = await replicaStanding();
  if (standing !== null && standing !== "ok") {
    for (const streams of [...byUser.values()])
      for (const stream of [...streams]) stream.sink.end();
    return;
  }
  const live = await liveSessionHashes([...sessions]);
  for (const streams of [...byUser.values()])
    for (const stream of [...streams])
      if (!live.has(stream.session)) stream.sink.end();
}

async function tick() {
  if (ticking) return; // the last tick is still reading: this one is skipped
  ticking = true;
  try {
    await pollLiveEvents();
    const every = Math.min(SESSION_CHECK_MS, liveHeartbeatMs());
    if (Date.now() - lastSessionCheck >= every) {
      lastSessionCheck = Date.now();
      await endStreamsOfEndedSessions();
    }
  } catch (error) {
    console.error("live events: poll failed", error);
  } finally {
    ticking = false;
  }
}

async function beginReading() {
  const start = await liveCursorStart();
  // Every stream closed, or another start won, while this one read.
  if (poll || open === 0 || stopping) return;
  cursor = start.latest;
  unseen.clear();
  for (const id of start.missing) unseen.set(id, start.xmax ?? 0n);
  lastSessionCheck = Date.now();
  poll = setInterval(() => void tick(), livePollMs());
  poll.unref();
  heartbeat = setInterval(() => {
    for (const streams of byUser.values())
      for (const stream of streams)
        if (!stream.held) stream.sink.write(": \n\n");
  }, liveHeartbeatMs());
  heartbeat.unref();
  if (!stopHookSet) {
    stopHookSet = true;
    onStopStarting(closeAllLiveStreams);
  }
}

/** Starts the poll unless it runs; simultaneous callers share one start. */
function ensureReading(): Promise<void> {
  if (poll) return Promise.resolve();
  starting ??= beginReading().finally(() => {
    starting = null;
  });
  return starting;
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
 * Opens a stream for `userId`, signed in with the session whose hash is
 * `session`. `afterId` (Last-Event-ID, or the page's own cursor) is where
 * the person's view was: what they missed since is written at once. Returns
 * the function that closes it (the client went away).
 */
export async function openLiveStream(
  userId: number,
  afterId: number | null,
  sink: LiveSink,
  session: string,
): Promise<OpenOutcome> {
  if (stopping) return { ok: false, reason: "stopping" };
  // The place is taken before the first await, so streams opened at the
  // same moment count each other; it is given back if the opening fails.
  let mine = byUser.get(userId);
  if (rateLimitsOn && mine && mine.size >= MAX_STREAMS_PER_USER)
    return { ok: false, reason: "too-many" };
  if (!mine) byUser.set(userId, (mine = new Set()));
  const stream: Stream = {
    userId,
    session,
    floor: afterId ?? 0,
    sink,
    held: [],
  };
  mine.add(stream);
  open += 1;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    // A person's set leaves the map only once empty: this one holds the stream.
    const streams = byUser.get(userId);
    streams?.delete(stream);
    if (streams?.size === 0) byUser.delete(userId);
    open -= 1;
    if (open === 0) stopTimers();
  };

  const caughtUp = new Set<number>();
  try {
    await ensureReading();
    sink.write(`retry: ${RETRY_MS}\n: open\n\n`);
    if (afterId !== null && afterId < cursor) {
      const upTo = cursor;
      const missed = await liveEventsOfUser(userId, afterId, upTo);
      for (const event of missed) caughtUp.add(event.id);
      writeTo(stream, missed, settledUpTo());
    }
  } catch (error) {
    close();
    throw error;
  }
  // A stop that began while this stream was reading has already ended the
  // streams it knew: this one ends now too, or it would hold the stop back.
  if (stopping) {
    close();
    sink.end();
    return { ok: false, reason: "stopping" };
  }
  const held = stream.held ?? [];
  stream.held = null;
  writeTo(
    stream,
    held.filter((event) => !caughtUp.has(event.id)),
    settledUpTo(),
  );
  return { ok: true, close };
}

/**
 * Where a page's data stands among live events, read before the page's own
 * data (the app layout): an id below which nothing is still in flight, so a
 * stream opened with it as `?after=` also sends what commits late. With it,
 * in the same statement, the count `alongside` asks for (liveCursorStart).
 */
export async function liveResumePoint(
  alongside?: SQL,
): Promise<{ point: number; alongside: number }> {
  const known = poll ? settledUpTo() : 0;
  const start = await liveCursorStart(known, alongside);
  const answer = (point: number) => ({ point, alongside: start.alongside });
  if (start.xmin === start.xmax) return answer(start.latest); // nothing in flight
  let point = start.latest;
  for (const id of start.missing) {
    // Read or rolled back, as this process's own poll found.
    if (poll && id <= cursor && !unseen.has(id)) continue;
    point = Math.min(point, id - 1);
  }
  return answer(Math.max(point, 0));
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
