import { describe, expect, it } from "vitest";
import { getBetPage, settlementViewOf } from "./settlement-view.server";
import { proposeSettlement } from "./settlement.server";
import { getBetView } from "../bets/bet-access.server";
import { createBet } from "../bets/bet.server";
import { parseBetInput } from "../bets/bet-input.server";
import { BET_NOT_FOUND } from "~/domain/bet";
import { activeBet, person } from "../../../tests/support/factories";
import { expectRejection } from "../../../tests/support/expect-error";

// /bet/{id} reads the bet, its seats, its referee's name and its live
// settlement in one statement (getBetPage): the same views the separate
// readings give, and the same 404 for a bet the viewer may not see.
describe("getBetPage", () => {
  it("reads an active bet with no settlement, then with a live proposal, as the separate readings do", async () => {
    const { creator, joiner, bet } = await activeBet();
    const before = await getBetPage({ betId: bet.id, userId: creator.id });
    expect(before).toEqual({
      bet: await getBetView(bet.id),
      settlementView: null,
    });

    await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
      notes: "I won fair",
    });
    const after = await getBetPage({ betId: bet.id, userId: creator.id });
    const view = (await getBetView(bet.id))!;
    expect(after.bet).toEqual(view);
    expect(after.settlementView).toEqual(
      await settlementViewOf(view, creator.id),
    );
    expect(after.settlementView).toMatchObject({
      winnerName: joiner.username,
      proposerName: joiner.username,
      viewerSide: "creator",
      canRespond: true,
      settlement: { betId: bet.id, notes: "I won fair" },
    });
    expect(after.settlementView!.settlement.proposedAt).toBeInstanceOf(Date);
  });

  it("is a 404 for a missing bet and for a private bet the viewer has no way into", async () => {
    const creator = await person("pc");
    const stranger = await person("ps");
    const hidden = await createBet({
      creatorId: creator.id,
      input: parseBetInput(
        {
          title: "Just us",
          description: "Private",
          amount: 10,
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
          visibility: "private",
        },
        "create",
      ),
    });
    await expectRejection(
      () => getBetPage({ betId: hidden.id, userId: stranger.id }),
      404,
      BET_NOT_FOUND,
    );
    await expectRejection(
      () => getBetPage({ betId: hidden.id + 1_000_000, userId: creator.id }),
      404,
      BET_NOT_FOUND,
    );
    expect(
      (await getBetPage({ betId: hidden.id, userId: creator.id })).bet.title,
    ).toBe("Just us");
  });
});
