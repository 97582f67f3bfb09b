// The open event streams of one process under faults (docs/product-rules.md#live-pages,
// docs/decisions/1010-live-pages-over-server-sent-events.md,
// docs/decisions/1036-the-live-cursor-never-skips-an-event.md): many opens at
// once, one poll timer, streams whose session ended, and an event whose
// transaction commits after a higher id was read.
import { afterEach, describe, expect, it, vi } from "vitest";
import { engine, pool } from "~/db/connections.server";
import { immediate } from "~/db/transactions.server";
import { createSession } from "../accounts/session.server";
import { person } from "../../../tests/support/factories";
import { rawDb } from "../../../tests/support/raw-sql";
import { announceActivity } from "./live-events.server";
import {
  openLiveStream,
  openLiveStreamCount,
  pollLiveEvents,
  type OpenOutcome,
} from "./live-streams.server";
import crypto from "node:crypto";

type TestSink = {
  write: (text: string) => void;
  end: () => void;
  texts: string[];
  ended: boolean;
  /** The `data` of each event written, in order. */
  events: () => Record<string, unknown>[];
  /** Each event's `id:` line: where a reconnect resumes. */
  ids: () => string[];
};

function testSink(): TestSink {
  const sink: TestSink = {
    texts: [],
    ended: false,
    write: (text) => sink.texts.push(text),
    end: () => {
      sink.ended = true;
    },
    events: () =>
      [...sink.texts.join("").matchAll(/^data: (.*)$/gm)].map(
        (m) => JSON.parse(m[1]!) as Record<string, unknown>,
      ),
    ids: () =>
      [...sink.texts.join("").matchAll(/^id: (.*)$/gm)].map((m) => m[1]!),
  };
  return sink;
}

/** The token hash the sessions table keeps for a fresh session of `userId`. */
async function sessionOf(userId: number) {
  const { token } = await createSession(userId);
  return crypto.createHash("sha256").update(token).digest("hex");
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
  vi.useRealTimers();
});
function keep(outcome: OpenOutcome) {
  if (outcome.ok) closers.push(outcome.close);
  return outcome;
}

describe("many streams opened at once by one person", () => {
  it("every stream is registered and told; one poll timer, none once all close", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const alice = await person("ms");
    const session = await sessionOf(alice.id);
    const sinks = Array.from({ length: 40 }, () => testSink());
    const outcomes = await Promise.all(
      sinks.map((sink) => openLiveStream(alice.id, null, sink, session)),
    );
    for (const outcome of outcomes) keep(outcome);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(openLiveStreamCount()).toBe(40);
    // One poll and one heartbeat for the whole process, however many
    // streams began it at the same moment.
    expect(vi.getTimerCount()).toBe(2);

    await immediate((tx) => announceActivity(tx, alice.id));
    await pollLiveEvents();
    for (const sink of sinks)
      expect(sink.events()).toContainEqual({ type: "activity" });

    for (const close of closers.splice(0)) close();
    expect(openLiveStreamCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("a stream whose session ended", () => {
  it("ends at the next session check; a stream of a live session stays", async () => {
    const alice = await person("se");
    const gone = await sessionOf(alice.id);
    const stays = await sessionOf(alice.id);
    const goneSink = testSink();
    const staysSink = testSink();
    keep(await openLiveStream(alice.id, null, goneSink, gone));
    keep(await openLiveStream(alice.id, null, staysSink, stays));
    await rawDb.prepare("DELETE FROM sessions WHERE id_hash = ?").run(gone);
    await vi.waitFor(() => expect(goneSink.ended).toBe(true), {
      timeout: 5_000,
    });
    expect(staysSink.ended).toBe(false);
  });
});

// PostgreSQL hands out ids at insert and makes rows visible at commit: a row
// with a lower id may become visible after a higher one was read. (SQLite
// commits one write at a time, so there it cannot happen.)
describe.skipIf(engine !== "postgres")(
  "an event whose transaction commits late (PostgreSQL)",
  () => {
    async function holdEvent(userId: number) {
      const client = await pool.connect();
      await client.query("BEGIN");
      const { rows } = await client.query<{ id: number }>(
        "INSERT INTO live_events (user_id, type) VALUES ($1, 'friends') RETURNING id",
        [userId],
      );
      return {
        id: rows[0]!.id,
        commit: async () => {
          await client.query("COMMIT");
          client.release();
        },
      };
    }

    it("reaches the open stream once it commits, and a stream resumed from the id seen meanwhile", async () => {
      const alice = await person("lc");
      const session = await sessionOf(alice.id);
      const sink = testSink();
      keep(await openLiveStream(alice.id, null, sink, session));

      const late = await holdEvent(alice.id);
      await immediate((tx) => announceActivity(tx, alice.id));
      await pollLiveEvents();
      expect(sink.events()).toEqual([{ type: "activity" }]);
      const resumeFrom = sink.ids().at(-1)!;

      await late.commit();
      await pollLiveEvents();
      expect(sink.events()).toEqual([
        { type: "activity" },
        { type: "friends" },
      ]);

      // A tab that went away after the activity event and comes back with
      // its id: the late event is among what it missed.
      const back = testSink();
      keep(await openLiveStream(alice.id, Number(resumeFrom), back, session));
      expect(back.events()).toContainEqual({ type: "friends" });
    });
  },
);
