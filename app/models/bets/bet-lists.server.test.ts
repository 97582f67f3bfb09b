// Bets: private bets, edit and delete, the lists, the dashboard and the
// history (docs/product-rules.md#statuses, #private-bets), the model rules.
import { describe, expect, it } from "vitest";
import {
  BET_CHANGED,
  createBet,
  deleteBet,
  joinBet,
  updateBet,
} from "./bet.server";
import { listPublicBets, listUserBets } from "./bet-lists.server";
import { parseBetInput } from "./bet-input.server";
import { getBetForViewer, openBetByCode } from "./bet-access.server";
import { expectRejection } from "../../../tests/support/expect-error";
import { DAY, input, person } from "../../../tests/support/bettors";

describe("private bets (docs/product-rules.md#private-bets)", () => {
  it("are a 404 to strangers until opened by code, never in the public feed", async () => {
    const [alice, bob] = [await person(), await person()];
    const bet = await createBet({
      creatorId: alice.id,
      input: input({ visibility: "private" }),
    });
    await expectRejection(
      async () => getBetForViewer({ betId: bet.id, userId: bob.id }),
      404,
    );
    await expectRejection(
      async () => joinBet({ betId: bet.id, userId: bob.id }),
      404,
    );
    expect((await listPublicBets()).some((b) => b.id === bet.id)).toBe(false);
    await openBetByCode({
      code: bet.code.toLowerCase(),
      userId: bob.id,
      clientAddress: "test",
    });
    expect((await getBetForViewer({ betId: bet.id, userId: bob.id })).id).toBe(
      bet.id,
    );
    expect((await joinBet({ betId: bet.id, userId: bob.id })).status).toBe(
      "active",
    );
  });
});

describe("edit and delete", () => {
  it("are the creator's alone, and only while nobody has joined", async () => {
    const [alice, bob] = [await person(), await person()];
    const bet = await createBet({ creatorId: alice.id, input: input() });
    const edit = parseBetInput(
      {
        title: "New title",
        description: "A longer description",
        amount: 30,
        deadline: new Date(Date.now() + DAY).toISOString(),
        visibility: "public",
      },
      "edit",
    );
    const denied = await expectRejection(
      async () => updateBet({ betId: bet.id, userId: bob.id, input: edit }),
      403,
      "You can only edit bets you've created.",
    );
    expect(denied.title).toBe("Access denied");
    const updated = await updateBet({
      betId: bet.id,
      userId: alice.id,
      input: edit,
    });
    expect(updated.title).toBe("New title");
    expect(updated.amountCents).toBe(3000);
    expect(updated.updatedAt.getTime()).toBeGreaterThan(
      bet.updatedAt.getTime(),
    );
    // A join that saw the old terms is refused.
    await expectRejection(
      async () =>
        joinBet({
          betId: bet.id,
          userId: bob.id,
          version: bet.updatedAt.getTime(),
        }),
      409,
      BET_CHANGED,
    );
    await joinBet({
      betId: bet.id,
      userId: bob.id,
      version: updated.updatedAt.getTime(),
    });
    const joined = await expectRejection(
      async () => updateBet({ betId: bet.id, userId: alice.id, input: edit }),
      409,
    );
    expect(joined.title).toBe("Cannot edit");
    await expectRejection(
      async () => deleteBet({ betId: bet.id, userId: alice.id }),
      409,
    );
  });

  it("deletes a bet nobody joined", async () => {
    const alice = await person();
    const bet = await createBet({ creatorId: alice.id, input: input() });
    await deleteBet({ betId: bet.id, userId: alice.id });
    await expectRejection(
      async () => getBetForViewer({ betId: bet.id, userId: alice.id }),
      404,
    );
  });
});

describe("lists", () => {
  it("splits created, joined and completed as docs/product-rules.md#statuses says", async () => {
    const [alice, bob] = [await person(), await person()];
    const a = await createBet({ creatorId: alice.id, input: input() });
    const b = await createBet({ creatorId: bob.id, input: input() });
    await joinBet({ betId: b.id, userId: alice.id });
    expect(
      (await listUserBets(alice.id, "created")).map((x) => x.id),
    ).toContain(a.id);
    expect(
      (await listUserBets(alice.id, "created")).map((x) => x.id),
    ).not.toContain(b.id);
    expect((await listUserBets(alice.id, "joined")).map((x) => x.id)).toEqual([
      b.id,
    ]);
    expect(await listUserBets(alice.id, "completed")).toEqual([]);
  });
});

describe("getDashboard (docs/product-rules.md#statuses)", () => {
  it("counts created + joined open bets and sums At Stake over active bets only", async () => {
    const { getDashboard } = await import("./bet-lists.server");
    const me = await person();
    const other = await person();
    const pendingMine = await createBet({
      creatorId: me.id,
      input: input({ amount: 10 }),
    });
    const activeMine = await createBet({
      creatorId: me.id,
      input: input({ amount: 30 }),
    });
    await joinBet({ betId: activeMine.id, userId: other.id });
    const theirs = await createBet({
      creatorId: other.id,
      input: input({ amount: 45 }),
    });
    await joinBet({ betId: theirs.id, userId: me.id });
    await createBet({ creatorId: other.id, input: input({ amount: 99 }) });

    const d = await getDashboard(me.id);
    expect(d.createdCount).toBe(2);
    expect(d.joinedCount).toBe(1);
    expect(d.atStakeCount).toBe(2);
    expect(d.atStakeCents).toBe(7500);
    expect(d.total).toBe(3);
    expect(d.recent.map((b) => [b.id, b.type])).toEqual([
      [theirs.id, "joined"],
      [activeMine.id, "created"],
      [pendingMine.id, "created"],
    ]);
    expect(d.recent[0]!.creatorName).toBe(other.username);
    // Only the newest rows are shown, but the counts cover every open bet.
    const top = await getDashboard(me.id, Date.now(), 1);
    expect(top.recent.map((b) => b.id)).toEqual([theirs.id]);
    expect([top.total, top.createdCount, top.joinedCount]).toEqual([3, 2, 1]);
  });

  it("keeps At Stake apart per currency: never a sum of yen and dollars", async () => {
    const { getDashboard } = await import("./bet-lists.server");
    const [me, other] = [await person(), await person()];
    for (const [amount, currency] of [
      [30, "USD"],
      [1001, "JPY"],
      [2000, "JPY"],
      [15, "EUR"],
    ] as const) {
      const bet = await createBet({
        creatorId: me.id,
        input: input({ amount, currency }),
      });
      await joinBet({ betId: bet.id, userId: other.id });
    }
    const d = await getDashboard(me.id);
    expect(d.atStakeCount).toBe(4);
    expect(d.atStake).toEqual([
      { currency: "USD", cents: 3000 },
      { currency: "EUR", cents: 1500 },
      { currency: "JPY", cents: 3001 },
    ]);
    expect(d.atStakeCents).toBe(3000);
  });

  it("leaves out a pending bet past its deadline (it reads as cancelled)", async () => {
    const { getDashboard } = await import("./bet-lists.server");
    const me = await person();
    await createBet({ creatorId: me.id, input: input() });
    const later = Date.now() + 2 * DAY;
    const d = await getDashboard(me.id, later);
    expect(d.createdCount).toBe(0);
    expect(d.atStakeCents).toBe(0);
  });
});

describe("history", () => {
  it("writes a bet event for create, edit and join, in order", async () => {
    const { db } = await import("~/db/transactions.server");
    const { betEvents } = await import("~/db/schema");
    const { eq } = await import("drizzle-orm");
    const creator = await person();
    const joiner = await person();
    const bet = await createBet({ creatorId: creator.id, input: input() });
    await updateBet({
      betId: bet.id,
      userId: creator.id,
      input: input({ title: "New title here" }),
    });
    await joinBet({ betId: bet.id, userId: joiner.id });
    const events = await db
      .select()
      .from(betEvents)
      .where(eq(betEvents.betId, bet.id))
      .orderBy(betEvents.id);
    expect(events.map((e) => [e.type, e.actorId])).toEqual([
      ["created", creator.id],
      ["edited", creator.id],
      ["joined", joiner.id],
    ]);
    expect(events[1]!.data).toMatchObject({
      before: { title: "Who wins the derby" },
    });
  });
});
