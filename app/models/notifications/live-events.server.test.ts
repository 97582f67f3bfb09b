import { describe, expect, it } from "vitest";
import { db, sqlite } from "~/db/client.server";
import { deleteBet, joinBet } from "~/models/bets/bet.server";
import { proposeSettlement } from "~/models/settlements/settlement.server";
import { sendFriendRequest } from "~/models/social/friend.server";
import { markAllActivityRead } from "~/models/social/activity.server";
import { activeBet, makeBet, person } from "../../../tests/support/factories";
import {
  announceBet,
  latestLiveEventId,
  LIVE_EVENTS_KEEP_MS,
  liveEventsAfter,
  liveEventsOfUser,
  sweepLiveEvents,
} from "./live-events.server";

/** What each person was told since `cursor`, as "type:betId" per person. */
function toldSince(cursor: number) {
  const told = new Map<number, string[]>();
  for (const e of liveEventsAfter(cursor)) {
    const list = told.get(e.userId) ?? [];
    list.push(e.betId === null ? e.type : `${e.type}:${e.betId}`);
    told.set(e.userId, list);
  }
  return told;
}

describe("live events (docs/product-rules.md#live-pages)", () => {
  it("a join tells both sides of the bet, and the creator's activity; nobody else", async () => {
    const creator = await person("lc");
    const joiner = await person("lj");
    const stranger = await person("ls");
    const bet = makeBet(creator.id);
    const cursor = latestLiveEventId();
    joinBet({ betId: bet.id, userId: joiner.id });
    const told = toldSince(cursor);
    expect(told.get(creator.id)?.sort()).toEqual(["activity", `bet:${bet.id}`]);
    expect(told.get(joiner.id)).toEqual([`bet:${bet.id}`]);
    expect(told.has(stranger.id)).toBe(false);
  });

  it("a proposal tells both participants and the referee", async () => {
    const { creator, joiner, bet } = await activeBet();
    const referee = await person("lr");
    sqlite
      .prepare("UPDATE bets SET referee_id = ? WHERE id = ?")
      .run(referee.id, bet.id);
    const cursor = latestLiveEventId();
    proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
    });
    const told = toldSince(cursor);
    for (const who of [creator.id, joiner.id, referee.id])
      expect(told.get(who)).toContain(`bet:${bet.id}`);
  });

  it("a deleted bet still tells its creator (written before the delete)", async () => {
    const creator = await person("ld");
    const bet = makeBet(creator.id);
    const cursor = latestLiveEventId();
    deleteBet({ betId: bet.id, userId: creator.id });
    expect(toldSince(cursor).get(creator.id)).toEqual([`bet:${bet.id}`]);
  });

  it("friend requests tell both people; marking read tells the reader", async () => {
    const a = await person("fa");
    const b = await person("fb");
    let cursor = latestLiveEventId();
    sendFriendRequest({ userId: a.id, friendId: b.id });
    let told = toldSince(cursor);
    expect(told.get(a.id)).toEqual(["friends"]);
    expect(told.get(b.id)?.sort()).toEqual(["activity", "friends"]);
    cursor = latestLiveEventId();
    markAllActivityRead(b.id);
    told = toldSince(cursor);
    expect([...told.keys()]).toEqual([b.id]);
    expect(told.get(b.id)).toEqual(["activity"]);
    // Nothing unread: nothing changed, nobody told.
    cursor = latestLiveEventId();
    markAllActivityRead(b.id);
    expect(liveEventsAfter(cursor)).toEqual([]);
  });

  it("a reconnect reads one person's rows in (after, upTo], oldest first", async () => {
    const a = await person("ra");
    const b = await person("rb");
    const start = latestLiveEventId();
    const bet1 = makeBet(a.id);
    const bet2 = makeBet(b.id);
    const bet3 = makeBet(a.id);
    const end = latestLiveEventId();
    expect(liveEventsOfUser(a.id, start, end).map((e) => e.betId)).toEqual([
      bet1.id,
      bet3.id,
    ]);
    const first = liveEventsOfUser(a.id, start, end)[0]!.id;
    expect(liveEventsOfUser(a.id, first, end).map((e) => e.betId)).toEqual([
      bet3.id,
    ]);
    expect(liveEventsOfUser(b.id, start, end).map((e) => e.betId)).toEqual([
      bet2.id,
    ]);
  });

  it("the sweep drops rows older than a day", async () => {
    const a = await person("sa");
    const bet = makeBet(a.id);
    const cursor = latestLiveEventId();
    announceBet(db, bet.id);
    const id = latestLiveEventId();
    sqlite
      .prepare("UPDATE live_events SET created_at = ? WHERE id = ?")
      .run(Date.now() - LIVE_EVENTS_KEEP_MS - 1_000, id);
    expect(sweepLiveEvents()).toBeGreaterThanOrEqual(1);
    expect(liveEventsAfter(cursor)).toEqual([]);
  });
});
