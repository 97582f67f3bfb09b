import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { findBet, getBetView, toViews } from "./bet-access.server";
import {
  getDashboard,
  listAllUserBets,
  listUserBets,
} from "./bet-lists.server";
import { createBet, joinBet } from "./bet.server";
import { parseBetInput } from "./bet-input.server";
import {
  acceptFriendRequest,
  sendFriendRequest,
} from "../social/friend.server";
import { immediate } from "~/db/transactions.server";
import { users } from "~/db/schema";
import { DELETED_USER_NAME } from "~/domain/deleted-user";
import { makeBet, person } from "../../../tests/support/factories";

// A bet page and My Bets read each bet with its participants and referee's
// name in one statement (betViewColumns); the feed and the dashboard read
// the bets, then their seats and names (toViews). Both must give the same
// view of the same bet, on both engines.
async function refereedActiveBet() {
  const creator = await person("vc");
  const joiner = await person("vj");
  const referee = await person("vr");
  await sendFriendRequest({ userId: creator.id, friendId: referee.id });
  await acceptFriendRequest({ userId: referee.id, requesterId: creator.id });
  const bet = await createBet({
    creatorId: creator.id,
    input: parseBetInput(
      {
        title: "Refereed",
        description: "Carol decides",
        amount: 20,
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
        visibility: "public",
        refereeId: referee.id,
      },
      "create",
    ),
  });
  await joinBet({ betId: bet.id, userId: joiner.id });
  return { creator, joiner, referee, bet };
}

async function listView(betId: number, now?: number) {
  return (await toViews([(await findBet(betId))!], now))[0]!;
}

describe("getBetView", () => {
  it("reads the bet, its participants by seat and its referee's name, as the lists do", async () => {
    const { creator, joiner, referee, bet } = await refereedActiveBet();
    const view = await getBetView(bet.id);
    expect(view).toMatchObject({
      id: bet.id,
      status: "active",
      creatorName: creator.username,
      refereeName: referee.username,
      participants: [
        { id: creator.id, username: creator.username, seat: 1 },
        { id: joiner.id, username: joiner.username, seat: 2 },
      ],
    });
    expect(view!.deadline).toBeInstanceOf(Date);
    expect(view).toEqual(await listView(bet.id));
  });

  it("names a closed account 'Deleted user', and a bet without referee has none", async () => {
    const creator = await person("vd");
    const joiner = await person("vd");
    const bet = await makeBet(creator.id);
    await joinBet({ betId: bet.id, userId: joiner.id });
    await immediate((tx) =>
      tx
        .update(users)
        .set({ deletedAt: new Date() })
        .where(eq(users.id, joiner.id)),
    );
    const view = await getBetView(bet.id);
    expect(view!.refereeName).toBeNull();
    expect(view!.participants.map((p) => p.username)).toEqual([
      creator.username,
      DELETED_USER_NAME,
    ]);
    expect(view).toEqual(await listView(bet.id));
  });

  it("reads a pending bet past its deadline as cancelled, and no bet as null", async () => {
    const creator = await person("vp");
    const bet = await makeBet(creator.id);
    const later = Date.now() + 2 * 86_400_000;
    const view = await getBetView(bet.id, later);
    expect(view).toMatchObject({ status: "cancelled", participants: [{}] });
    expect(view).toEqual(await listView(bet.id, later));
    expect(await getBetView(bet.id + 1_000_000)).toBeNull();
  });

  it("My Bets' lists and the dashboard read the same views as the bet page", async () => {
    const { joiner, bet } = await refereedActiveBet();
    const own = await makeBet(joiner.id);
    const all = await listAllUserBets(joiner.id);
    expect(all.map((b) => b.id)).toEqual([own.id, bet.id]);
    expect(all).toEqual([await getBetView(own.id), await getBetView(bet.id)]);
    expect(await listUserBets(joiner.id, "joined")).toEqual([all[1]]);
    expect(await listUserBets(joiner.id, "created")).toEqual([all[0]]);
    expect(await listUserBets(joiner.id, "completed")).toEqual([]);
    expect((await getDashboard(joiner.id)).recent).toEqual([
      { ...all[0], type: "created" },
      { ...all[1], type: "joined" },
    ]);
  });
});
