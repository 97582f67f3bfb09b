import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { immediate } from "~/db/transactions.server";
import { deleteBet, joinBet } from "../bets/bet.server";
import { proposeSettlement } from "../settlements/settlement.server";
import { sendFriendRequest } from "../social/friend.server";
import { markAllActivityRead } from "../social/activity.server";
import { activeBet, makeBet, person } from "../../../tests/support/factories";
import {
  announceBet,
  latestLiveEventId,
  liveCursorStart,
  LIVE_EVENTS_KEEP_MS,
  liveEventsAfter,
  liveEventsOfUser,
  sweepLiveEvents,
} from "./live-events.server";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

/** What each person was told since `cursor`, as "type:betId" per person. */
async function toldSince(cursor: number) {
  const told = new Map<number, string[]>();
  for (const e of await liveEventsAfter(cursor)) {
    const list = told.get(e.userId) ?? [];
    list.push(e.betId === null ? e.type : `${e.type}:${e.betId}`);
    told.set(e.userId, list);
  }
  return told;
}

describe("live events (docs/product-rules.md#live-pages)", () => {
  it("the cursor's start reads a count asked for alongside it, and is the newest id", async () => {
    const creator = await person("la");
    await makeBet(creator.id);
    await sendFriendRequest({
      userId: (await person("lb")).id,
      friendId: creator.id,
    });
    const latest = await latestLiveEventId();
    const start = await liveCursorStart(
      0,
      sql`select count(*) + 6 from users where id = ${creator.id}`,
    );
    expect(start.latest).toBe(latest);
    expect(start.alongside).toBe(7);
    expect((await liveCursorStart()).alongside).toBe(0);
  });

  it("a join tells both sides of the bet, and the creator's activity; nobody else", async () => {
    const creator = await person("lc");
    const joiner = await person("lj");
    const stranger = await person("ls");
    const bet = await makeBet(creator.id);
    const cursor = await latestLiveEventId();
    await joinBet({ betId: bet.id, userId: joiner.id });
    const told = await toldSince(cursor);
    expect(told.get(creator.id)?.sort()).toEqual(["activity", `bet:${bet.id}`]);
    expect(told.get(joiner.id)).toEqual([`bet:${bet.id}`]);
    expect(told.has(stranger.id)).toBe(false);
  });

  it("a proposal tells both participants and the referee", async () => {
    const { creator, joiner, bet } = await activeBet();
    const referee = await person("lr");
    await sqlite
      .prepare("UPDATE bets SET referee_id = ? WHERE id = ?")
      .run(referee.id, bet.id);
    const cursor = await latestLiveEventId();
    await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
    });
    const told = await toldSince(cursor);
    for (const who of [creator.id, joiner.id, referee.id])
      expect(told.get(who)).toContain(`bet:${bet.id}`);
  });

  it("a deleted bet still tells its creator (written before the delete)", async () => {
    const creator = await person("ld");
    const bet = await makeBet(creator.id);
    const cursor = await latestLiveEventId();
    await deleteBet({ betId: bet.id, userId: creator.id });
    expect((await toldSince(cursor)).get(creator.id)).toEqual([
      `bet:${bet.id}`,
    ]);
  });

  it("friend requests tell both people; marking read tells the reader", async () => {
    const a = await person("fa");
    const b = await person("fb");
    let cursor = await latestLiveEventId();
    await sendFriendRequest({ userId: a.id, friendId: b.id });
    let told = await toldSince(cursor);
    expect(told.get(a.id)).toEqual(["friends"]);
    expect(told.get(b.id)?.sort()).toEqual(["activity", "friends"]);
    cursor = await latestLiveEventId();
    await markAllActivityRead(b.id);
    told = await toldSince(cursor);
    expect([...told.keys()]).toEqual([b.id]);
    expect(told.get(b.id)).toEqual(["activity"]);
    // Nothing unread: nothing changed, nobody told.
    cursor = await latestLiveEventId();
    await markAllActivityRead(b.id);
    expect(await liveEventsAfter(cursor)).toEqual([]);
  });

  it("a reconnect reads one person's rows in (after, upTo], oldest first", async () => {
    const a = await person("ra");
    const b = await person("rb");
    const start = await latestLiveEventId();
    const bet1 = await makeBet(a.id);
    const bet2 = await makeBet(b.id);
    const bet3 = await makeBet(a.id);
    const end = await latestLiveEventId();
    expect(
      (await liveEventsOfUser(a.id, start, end)).map((e) => e.betId),
    ).toEqual([bet1.id, bet3.id]);
    const first = (await liveEventsOfUser(a.id, start, end))[0]!.id;
    expect(
      (await liveEventsOfUser(a.id, first, end)).map((e) => e.betId),
    ).toEqual([bet3.id]);
    expect(
      (await liveEventsOfUser(b.id, start, end)).map((e) => e.betId),
    ).toEqual([bet2.id]);
  });

  it("the sweep drops rows older than a day", async () => {
    const a = await person("sa");
    const bet = await makeBet(a.id);
    const cursor = await latestLiveEventId();
    await immediate((tx) => announceBet(tx, bet.id));
    const id = await latestLiveEventId();
    await sqlite
      .prepare("UPDATE live_events SET created_at = ? WHERE id = ?")
      .run(Date.now() - LIVE_EVENTS_KEEP_MS - 1_000, id);
    expect(await sweepLiveEvents()).toBeGreaterThanOrEqual(1);
    expect(await liveEventsAfter(cursor)).toEqual([]);
  });
});
