// Settlements: parsing, propose, approve and reject, the model rules.
import { describe, expect, it } from "vitest";
import {
  ALREADY_APPROVED,
  ALREADY_SETTLED,
  LIVE_PROPOSAL,
  NO_WINNER,
  NOT_ACTIVE,
} from "./settlement-rules.server";
import {
  parseProposalInput,
  parseRejectionInput,
} from "./settlement-input.server";
import { SETTLEMENT_NOT_FOUND } from "~/domain/settlement-text";
import {
  approveSettlement,
  proposeSettlement,
  rejectSettlement,
} from "./settlement.server";
import {
  getSettlement,
  getSettlementView,
  listSettlementHistory,
} from "./settlement-view.server";
import { toSettlementJson } from "~/routes/api/json";
import { getUserById } from "../accounts/user.server";
import { listActivity } from "../social/activity.server";
import { activeBet, makeBet, person } from "../../../tests/support/factories";
import { expectRejection } from "../../../tests/support/expect-error";

describe("parsing", () => {
  it("requires a winner with the product's message and trims optional notes", async () => {
    const e = await expectRejection(
      () => parseProposalInput({}),
      400,
      NO_WINNER,
    );
    expect(e.fieldErrors).toEqual({ winnerId: [NO_WINNER] });
    await expectRejection(
      () => parseProposalInput({ winnerId: "" }),
      400,
      NO_WINNER,
    );
    await expectRejection(
      () => parseProposalInput({ winnerId: "abc" }),
      400,
      NO_WINNER,
    );
    expect(
      parseProposalInput({ winnerId: "7", settlementNotes: "  fair  " }),
    ).toEqual({ outcome: "winner", winnerId: 7, notes: "fair" });
    expect(parseProposalInput({ winnerId: 7, settlementNotes: "   " })).toEqual(
      { outcome: "winner", winnerId: 7, notes: null },
    );
    const long = await expectRejection(
      () =>
        parseProposalInput({ winnerId: 7, settlementNotes: "é".repeat(501) }),
      400,
    );
    expect(long.fieldErrors?.settlementNotes).toEqual([
      "Notes must be at most 500 characters.",
    ]);
    expect(
      parseProposalInput({ winnerId: 7, settlementNotes: "😀".repeat(500) })
        .notes,
    ).toHaveLength(1000);
    expect(parseRejectionInput({ rejectionReason: "  no " })).toEqual({
      reason: "no",
    });
    await expectRejection(
      () => parseRejectionInput({ rejectionReason: "x".repeat(501) }),
      400,
    );
  });
});

describe("propose, approve, reject", () => {
  it("settles only when the other side approves, once, with fee and counts", async () => {
    const { creator, joiner, bet } = await activeBet(100);
    const proposal = await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
      notes: "I won fair",
    });
    expect(proposal).toMatchObject({
      winnerId: joiner.id,
      loserId: creator.id,
      proposedBy: joiner.id,
      creatorApproved: false,
      participantApproved: true,
      settledAt: null,
    });
    // The proposer cannot approve their own proposal into a win.
    await expectRejection(
      async () => approveSettlement({ betId: bet.id, userId: joiner.id }),
      409,
      ALREADY_APPROVED,
    );
    // A second proposal while one is live.
    await expectRejection(
      async () =>
        proposeSettlement({
          betId: bet.id,
          userId: creator.id,
          winnerId: creator.id,
        }),
      409,
      LIVE_PROPOSAL,
    );
    expect((await listActivity(creator.id))[0]).toMatchObject({
      type: "settlement_proposed",
      actorId: joiner.id,
    });

    const { bet: settled, settlement } = await approveSettlement({
      betId: bet.id,
      userId: creator.id,
    });
    expect(settled.status).toBe("settled");
    expect(settled.winnerId).toBe(joiner.id);
    expect(settled.settledAt).not.toBeNull();
    expect(settlement).toMatchObject({
      creatorApproved: true,
      participantApproved: true,
      feeCents: 250,
      netCents: 9750,
      paymentStatus: "pending",
    });
    expect(toSettlementJson(settlement, "USD")).toMatchObject({
      id: bet.id,
      feeAmount: 2.5,
      netAmount: 97.5,
      settlementNotes: "I won fair",
    });
    expect(await getUserById(joiner.id)).toMatchObject({
      winCount: 1,
      lossCount: 0,
    });
    expect(await getUserById(creator.id)).toMatchObject({
      winCount: 0,
      lossCount: 1,
    });
    // docs/product-rules.md#notifications: both sides hear that the bet is settled.
    expect((await listActivity(joiner.id))[0]).toMatchObject({
      type: "bet_settled",
    });
    expect((await listActivity(creator.id))[0]).toMatchObject({
      type: "bet_settled",
    });
    expect(settlement.resolution).toBe("agreed");

    await expectRejection(
      async () => approveSettlement({ betId: bet.id, userId: creator.id }),
      409,
      ALREADY_SETTLED,
    );
    await expectRejection(
      async () => rejectSettlement({ betId: bet.id, userId: creator.id }),
      409,
      ALREADY_SETTLED,
    );
    await expectRejection(
      async () =>
        proposeSettlement({
          betId: bet.id,
          userId: creator.id,
          winnerId: creator.id,
        }),
      409,
    );
    expect((await getUserById(joiner.id))?.winCount).toBe(1);
  });

  it("refuses strangers, unknown winners, unseen bets and inactive bets", async () => {
    const { creator, joiner, bet } = await activeBet();
    const stranger = await person("s");
    await expectRejection(
      async () =>
        proposeSettlement({
          betId: bet.id,
          userId: stranger.id,
          winnerId: creator.id,
        }),
      403,
    );
    await expectRejection(
      async () =>
        proposeSettlement({
          betId: bet.id,
          userId: creator.id,
          winnerId: stranger.id,
        }),
      400,
      NO_WINNER,
    );
    await expectRejection(
      async () =>
        proposeSettlement({
          betId: 999_999,
          userId: creator.id,
          winnerId: creator.id,
        }),
      404,
    );
    const pending = await makeBet(creator.id);
    await expectRejection(
      async () =>
        proposeSettlement({
          betId: pending.id,
          userId: creator.id,
          winnerId: creator.id,
        }),
      409,
      NOT_ACTIVE,
    );
    await expectRejection(
      async () => approveSettlement({ betId: bet.id, userId: creator.id }),
      404,
      SETTLEMENT_NOT_FOUND,
    );
    await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    await expectRejection(
      async () => approveSettlement({ betId: bet.id, userId: stranger.id }),
      403,
    );
    await expectRejection(
      async () => rejectSettlement({ betId: bet.id, userId: stranger.id }),
      403,
    );
    expect(
      (await getSettlement({ betId: bet.id, userId: joiner.id })).proposedBy,
    ).toBe(creator.id);
    expect(
      (await getSettlementView({ betId: bet.id, userId: stranger.id }))
        ?.canRespond,
    ).toBe(false);
    expect(
      await getSettlementView({ betId: bet.id, userId: joiner.id }),
    ).toMatchObject({
      canRespond: true,
      viewerSide: "participant",
      winnerName: creator.username,
      feeCents: 250,
      netCents: 9750,
    });
  });

  it("rejecting deletes the live proposal, keeps its history and allows a new one", async () => {
    const { creator, joiner, bet } = await activeBet();
    await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    await rejectSettlement({
      betId: bet.id,
      userId: joiner.id,
      reason: "Not true",
    });
    await expectRejection(
      async () => getSettlement({ betId: bet.id, userId: joiner.id }),
      404,
    );
    await expectRejection(
      async () => rejectSettlement({ betId: bet.id, userId: joiner.id }),
      404,
    );
    expect((await listActivity(creator.id))[0]).toMatchObject({
      type: "settlement_rejected",
    });
    // The proposer may withdraw too.
    await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: creator.id,
    });
    await rejectSettlement({ betId: bet.id, userId: joiner.id });
    const history = (await listSettlementHistory(bet.id)).map((e) => e.type);
    expect(history).toEqual([
      "settlement_proposed",
      "settlement_rejected",
      "settlement_proposed",
      "settlement_rejected",
    ]);
    expect((await listSettlementHistory(bet.id))[1]?.data).toMatchObject({
      reason: "Not true",
    });
    const again = await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
    });
    expect(again.winnerId).toBe(joiner.id);
    expect((await getUserById(creator.id))?.lossCount).toBe(0);
  });
});
