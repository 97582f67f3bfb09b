// Live pages (docs/product-rules.md#live-pages): who must hear that a page
// they see changed. The models that change a bet, a friendship or someone's
// activity call these in the same transaction as the change, so an event
// exists exactly when the change does, whichever process or machine made
// it. Each process reads the new rows by id (live-streams.server.ts) and
// passes them to its open streams (docs/decisions/1010-live-pages-over-server-sent-events.md).
// On PostgreSQL an id is handed out at insert and its row seen at commit, so
// the read also says which transactions may still commit a lower id
// (docs/decisions/1036-the-live-cursor-never-skips-an-event.md).
import {
  and,
  asc,
  desc,
  eq,
  gt,
  inArray,
  lt,
  lte,
  sql,
  type SQL,
} from "drizzle-orm";
import { engine, type Tx } from "~/db/connections.server";
import { db, preparedOnce, immediate } from "~/db/transactions.server";
import { selectRows, changedRows } from "~/db/dialect.server";
import { betParticipants, bets, liveEvents, sessions } from "~/db/schema";
import type { LiveEventType } from "~/domain/live-message";

export type LiveEvent = {
  id: number;
  userId: number;
  type: LiveEventType;
  betId: number | null;
};

/** How long a row is kept: a stream that was away longer revalidates anyway. */
export const LIVE_EVENTS_KEEP_MS = 24 * 60 * 60_000;

type Writer = Tx | typeof db;

async function tell(
  tx: Writer,
  people: Iterable<number>,
  type: LiveEventType,
  betId: number | null = null,
) {
  const rows = [...new Set(people)].map((userId) => ({ userId, type, betId }));
  if (rows.length === 0) return;
  // The transaction takes its id before its rows take theirs: a reader that
  // finds an id missing then knows the transaction holding it is below the
  // snapshot's xmax, and when it has surely ended (docs/decisions/1036-the-live-cursor-never-skips-an-event.md).
  if (engine === "postgres")
    await selectRows(tx, sql`select pg_current_xact_id()`);
  await tx.insert(liveEvents).values(rows);
}

/**
 * Something on bet `betId` changed: tells its participants and its referee
 * (never anyone else: a private bet's news reaches only those in it), and
 * `alsoTell` (a referee who was just replaced, say). Call it after the change
 * within its transaction, so someone who has just joined hears it too; for
 * a bet about to be deleted, before the delete.
 */
export async function announceBet(
  tx: Writer,
  betId: number,
  alsoTell: readonly (number | null | undefined)[] = [],
) {
  const people = new Set<number>();
  for (const id of alsoTell) if (typeof id === "number") people.add(id);
  for (const row of await tx
    .select({ userId: betParticipants.userId })
    .from(betParticipants)
    .where(eq(betParticipants.betId, betId)))
    people.add(row.userId);
  const bet = (
    await tx
      .select({ creatorId: bets.creatorId, refereeId: bets.refereeId })
      .from(bets)
      .where(eq(bets.id, betId))
      .limit(1)
  )[0];
  if (bet) {
    people.add(bet.creatorId);
    if (bet.refereeId !== null) people.add(bet.refereeId);
  }
  await tell(tx, people, "bet", betId);
}

/** A friendship between these people was asked, accepted or declined. */
export async function announceFriends(tx: Writer, ...userIds: number[]) {
  await tell(tx, userIds, "friends");
}

/** `userId`'s activity (and so the header's unread count) changed. */
export async function announceActivity(tx: Writer, userId: number) {
  await tell(tx, [userId], "activity");
}

const latest = preparedOnce(() =>
  db
    .select({ id: liveEvents.id })
    .from(liveEvents)
    .orderBy(desc(liveEvents.id))
    .limit(1)
    .prepare("live_events_latest"),
);

/** The newest row's id (0 with none): where a new cursor starts. */
export async function latestLiveEventId(): Promise<number> {
  return (await latest().execute())[0]?.id ?? 0;
}

/** The columns a stream is sent: one shape for the poll and the catch-up. */
const LIVE_EVENT_COLUMNS = {
  id: liveEvents.id,
  userId: liveEvents.userId,
  type: liveEvents.type,
  betId: liveEvents.betId,
};

const after = preparedOnce(() =>
  db
    .select(LIVE_EVENT_COLUMNS)
    .from(liveEvents)
    .where(gt(liveEvents.id, sql.placeholder("cursor")))
    .orderBy(asc(liveEvents.id))
    .limit(sql.placeholder("limit"))
    .prepare("live_events_after"),
);

/**
 * The cursor query each process runs every LIVE_POLL_MS while it has open
 * streams: the rows after `cursor`, oldest first (the primary key's order).
 */
export async function liveEventsAfter(
  cursor: number,
  limit = 1000,
): Promise<LiveEvent[]> {
  return await after().execute({ cursor, limit });
}

/**
 * One read of the live cursor: the rows after `cursor` and the rows among
 * `missing` (ids below it not seen yet) that are now visible, oldest first,
 * with the bounds of the snapshot they were read in. On PostgreSQL every
 * transaction below `xmin` had ended when they were read, and every one
 * still to take an id gets one of at least `xmax`. On SQLite a reader only
 * ever sees whole commits, made one at a time: nothing is in flight, both
 * are null.
 */
export type LiveRead = {
  events: LiveEvent[];
  xmin: bigint | null;
  xmax: bigint | null;
};

export async function readLiveEvents(
  cursor: number,
  missing: number[],
  limit = 1000,
): Promise<LiveRead> {
  if (engine === "sqlite")
    return {
      events: await selectRows<LiveEvent>(
        db,
        sql`select id, user_id as "userId", type, bet_id as "betId"
          from live_events
          where id > ${cursor}
            or id in (select value from json_each(${JSON.stringify(missing)}))
          order by id limit ${limit}`,
      ),
      xmin: null,
      xmax: null,
    };
  // One statement, so the rows and the bounds come from one snapshot.
  const [row] = await selectRows<{
    xmin: string;
    xmax: string;
    events: LiveEvent[];
  }>(
    db,
    sql`select pg_snapshot_xmin(s)::text as xmin, pg_snapshot_xmax(s)::text as xmax,
      coalesce((select json_agg(json_build_object('id', e.id, 'userId', e.user_id,
          'type', e.type, 'betId', e.bet_id) order by e.id)
        from (select id, user_id, type, bet_id from live_events
          where id > ${cursor} or id = any(${`{${missing.join(",")}}`}::int[])
          order by id limit ${limit}) e), '[]'::json) as events
      from pg_current_snapshot() as s`,
  );
  return {
    events: row!.events,
    xmin: BigInt(row!.xmin),
    xmax: BigInt(row!.xmax),
  };
}

/** How far back a process that begins reading looks for ids in flight. */
export const LIVE_LOOK_BACK_IDS = 1_000;

/**
 * Where a process's cursor begins: the newest visible id, and the ids among
 * the LIVE_LOOK_BACK_IDS before it that are not visible (in flight, or
 * rolled back: only PostgreSQL has either), with the snapshot's bounds.
 * A page's cursor is read the same way. `alongside`, a count a caller wants
 * with it (the header's unread activity), is read in the same statement:
 * the same snapshot, and on PostgreSQL no second round trip (each costs
 * the app server about half a millisecond of CPU).
 */
export async function liveCursorStart(
  /** Ids up to this one are known not to be in flight: not looked at. */
  settled = 0,
  alongside?: SQL,
): Promise<
  Omit<LiveRead, "events"> & {
    latest: number;
    missing: number[];
    alongside: number;
  }
> {
  if (engine === "sqlite") {
    if (!alongside)
      return {
        latest: await latestLiveEventId(),
        missing: [],
        xmin: null,
        xmax: null,
        alongside: 0,
      };
    const [row] = await selectRows<{ latest: number; alongside: number }>(
      db,
      sql`select coalesce((select max(id) from live_events), 0) as latest,
        (${alongside}) as alongside`,
    );
    return {
      latest: Number(row!.latest),
      missing: [],
      xmin: null,
      xmax: null,
      alongside: Number(row!.alongside),
    };
  }
  const [row] = await selectRows<{
    xmin: string;
    xmax: string;
    latest: number;
    missing: number[];
    alongside: number;
  }>(
    db,
    // Every page asks this. With nothing in flight (xmin = xmax) no missing
    // id can still appear, so none is looked for: the series is empty.
    sql`with latest as (select coalesce(max(id), 0) as id from live_events)
      select pg_snapshot_xmin(s)::text as xmin, pg_snapshot_xmax(s)::text as xmax,
        latest.id as latest,
        array(select g from generate_series(
            greatest(latest.id - ${LIVE_LOOK_BACK_IDS}, ${settled}, 0) + 1,
            case when pg_snapshot_xmin(s) = pg_snapshot_xmax(s) then 0 else latest.id end) g
          where not exists (select 1 from live_events e where e.id = g)) as missing,
        (${alongside ?? sql`0`}) as alongside
      from pg_current_snapshot() as s, latest`,
  );
  return {
    latest: Number(row!.latest),
    missing: row!.missing.map(Number),
    xmin: BigInt(row!.xmin),
    xmax: BigInt(row!.xmax),
    alongside: Number(row!.alongside),
  };
}

/**
 * One person's rows in (`afterId`, `upToId`]: what a stream that reconnects
 * with Last-Event-ID missed. At most `limit`: one is enough to make the page
 * reload its data.
 */
export async function liveEventsOfUser(
  userId: number,
  afterId: number,
  upToId: number,
  limit = 100,
): Promise<LiveEvent[]> {
  return await db
    .select(LIVE_EVENT_COLUMNS)
    .from(liveEvents)
    .where(
      and(
        eq(liveEvents.userId, userId),
        gt(liveEvents.id, afterId),
        lte(liveEvents.id, upToId),
      ),
    )
    .orderBy(asc(liveEvents.id))
    .limit(limit);
}

/** Drops rows older than LIVE_EVENTS_KEEP_MS (the sweep calls it). */
export async function sweepLiveEvents(now = Date.now()): Promise<number> {
  return changedRows(
    await immediate(
      (tx) =>
        tx
          .delete(liveEvents)
          .where(lt(liveEvents.createdAt, new Date(now - LIVE_EVENTS_KEEP_MS))),
      { bookkeeping: true },
    ),
  );
}

/**
 * Which of `hashes` still name a live session: one query for all the event
 * streams of a process (docs/decisions/1010-live-pages-over-server-sent-events.md).
 * It reads the sessions table itself (accounts owns it): notifications sit
 * below accounts (docs/architecture.md#model-domains).
 */
export async function liveSessionHashes(
  hashes: readonly string[],
  now = Date.now(),
): Promise<Set<string>> {
  const live = new Set<string>();
  // In slices: a statement may bind only so many parameters.
  for (let i = 0; i < hashes.length; i += 500)
    for (const row of await db
      .select({ idHash: sessions.idHash })
      .from(sessions)
      .where(
        and(
          inArray(sessions.idHash, hashes.slice(i, i + 500)),
          gt(sessions.expiresAt, new Date(now)),
        ),
      ))
      live.add(row.idHash);
  return live;
}
