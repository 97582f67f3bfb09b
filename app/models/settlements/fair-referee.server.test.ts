// Fair to the end (docs/product-rules.md#referee): the referee, with time passed as `now`.
import { describe, expect, it } from "vitest";
import { sqlite } from "~/db/client.server";
import {
  ALREADY_REFERRED,
  ALREADY_SETTLED,
  NOT_REFEREE,
  NOT_REFERRED,
  NO_REFEREE,
  REFER_LIVE_PROPOSAL,
  REFER_NOTHING_REJECTED,
} from "./settlement-rules.server";
import {
  approveSettlement,
  proposeSettlement,
  rejectSettlement,
} from "./settlement.server";
import {
  referDispute,
  referralBlock,
  referralBlockForPage,
  ruleDispute,
} from "./settlement-referee.server";
import { settlementViewOf } from "./settlement-view.server";
import { toBetJson } from "~/routes/api/json";
import {
  REFEREE_CANNOT_JOIN,
  REFEREE_NOT_FRIEND,
  parseBetInput,
} from "../bets/bet-input.server";
import { createBet, joinBet, updateBet } from "../bets/bet.server";
import { getBetForViewer, getBetView } from "../bets/bet-access.server";
import { listActivity } from "../social/activity.server";
import { getUserById } from "../accounts/user.server";
import {
  acceptFriendRequest,
  sendFriendRequest,
} from "../social/friend.server";
import { activeBet, person } from "../../../tests/support/factories";
import { expectError } from "../../../tests/support/expect-error";
import { WINDOW, kinds, sweep } from "../../../tests/support/fair-clock";

async function friends(a: number, b: number) {
  sendFriendRequest({ userId: a, friendId: b });
  acceptFriendRequest({ userId: b, requesterId: a });
}

async function refereedBet(visibility: "public" | "private" = "public") {
  const creator = await person("rc");
  const joiner = await person("rj");
  const referee = await person("rr");
  await friends(creator.id, referee.id);
  const bet = createBet({
    creatorId: creator.id,
    input: {
      ...parseBetInput(
        {
          title: "Refereed",
          description: "Carol decides",
          amount: 20,
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
          visibility,
          refereeId: referee.id,
        },
        "create",
      ),
    },
  });
  return { creator, joiner, referee, bet };
}

describe("the referee (docs/product-rules.md#referee)", () => {
  it("must be a friend of the creator, never the creator; editable while pending", async () => {
    const creator = await person("rc");
    const stranger = await person("rs");
    const input = (refereeId: unknown) =>
      parseBetInput(
        {
          title: "Refereed",
          description: "Carol decides",
          amount: 20,
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
          visibility: "public",
          refereeId,
        },
        "create",
      );
    expectError(
      () => createBet({ creatorId: creator.id, input: input(stranger.id) }),
      400,
      REFEREE_NOT_FRIEND,
    );
    expectError(
      () => createBet({ creatorId: creator.id, input: input(creator.id) }),
      400,
      REFEREE_NOT_FRIEND,
    );
    expectError(() => input("abc"), 400, REFEREE_NOT_FRIEND);
    const bet = createBet({ creatorId: creator.id, input: input(null) });
    expect(bet.refereeId).toBeNull();
    await friends(creator.id, stranger.id);
    const edited = updateBet({
      betId: bet.id,
      userId: creator.id,
      input: parseBetInput(
        {
          title: "Refereed bet",
          description: "Carol decides it all",
          amount: 20,
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
          visibility: "public",
          refereeId: stranger.id,
        },
        "edit",
      ),
    });
    expect(toBetJson(edited)).toMatchObject({ refereeId: stranger.id });
    expect(edited.refereeName).toBe(stranger.username);
  });

  it("reads a private bet, cannot join, and rules after a referral", async () => {
    const { creator, joiner, referee, bet } = await refereedBet("private");
    expect(getBetForViewer({ betId: bet.id, userId: referee.id }).id).toBe(
      bet.id,
    );
    expectError(
      () => joinBet({ betId: bet.id, userId: referee.id }),
      409,
      REFEREE_CANNOT_JOIN,
    );
    sqlite
      .prepare("INSERT INTO bet_access (bet_id, user_id) VALUES (?, ?)")
      .run(bet.id, joiner.id);
    joinBet({ betId: bet.id, userId: joiner.id });
    expectError(
      () => referDispute({ betId: bet.id, userId: creator.id }),
      409,
      REFER_NOTHING_REJECTED,
    );
    expectError(
      () =>
        ruleDispute({
          betId: bet.id,
          userId: referee.id,
          outcome: "winner",
          winnerId: creator.id,
        }),
      409,
      NOT_REFERRED,
    );
    proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    expectError(
      () => referDispute({ betId: bet.id, userId: creator.id }),
      409,
      REFER_LIVE_PROPOSAL,
    );
    // The referee cannot approve for a side.
    expectError(
      () => approveSettlement({ betId: bet.id, userId: referee.id }),
      403,
    );
    rejectSettlement({ betId: bet.id, userId: joiner.id });
    expectError(() => referDispute({ betId: bet.id, userId: referee.id }), 403);
    const referred = referDispute({ betId: bet.id, userId: joiner.id });
    expect(toBetJson(referred).dispute).toMatchObject({
      referredBy: joiner.id,
    });
    expect(listActivity(referee.id)[0]).toMatchObject({
      type: "referee_requested",
      betId: bet.id,
    });
    expectError(
      () => referDispute({ betId: bet.id, userId: creator.id }),
      409,
      ALREADY_REFERRED,
    );
    expectError(
      () =>
        ruleDispute({
          betId: bet.id,
          userId: creator.id,
          outcome: "winner",
          winnerId: creator.id,
        }),
      403,
      NOT_REFEREE,
    );
    expectError(
      () =>
        ruleDispute({
          betId: bet.id,
          userId: referee.id,
          outcome: "winner",
          winnerId: referee.id,
        }),
      400,
    );
    const { bet: ruled, settlement } = ruleDispute({
      betId: bet.id,
      userId: referee.id,
      outcome: "winner",
      winnerId: joiner.id,
    });
    expect(ruled).toMatchObject({ status: "settled", winnerId: joiner.id });
    expect(settlement).toMatchObject({
      resolution: "referee",
      loserId: creator.id,
    });
    expect(kinds(creator.id)[0]).toBe("referee_ruled");
    expect(kinds(joiner.id)[0]).toBe("referee_ruled");
    expect(getUserById(joiner.id)?.winCount).toBe(1);
    expectError(
      () =>
        ruleDispute({
          betId: bet.id,
          userId: referee.id,
          outcome: "void",
          winnerId: null,
        }),
      409,
      ALREADY_SETTLED,
    );
  });

  it("the bet page's answer to 'may I ask the referee?' is the refer action's, at every step", async () => {
    const { creator, joiner, referee, bet } = await refereedBet();
    const stranger = await person("rx");
    const people = [creator, joiner, referee, stranger];
    const agree = () => {
      for (const who of people) {
        const view = getBetForViewer({ betId: bet.id, userId: who.id });
        const live = settlementViewOf(view, who.id) !== null;
        const row = getBetView(bet.id)!;
        expect(referralBlockForPage(view, who.id, live), who.username).toEqual(
          referralBlock(row, who.id),
        );
      }
    };
    agree(); // pending
    joinBet({ betId: bet.id, userId: joiner.id });
    agree(); // active, nothing rejected
    proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    agree(); // a live proposal
    rejectSettlement({ betId: bet.id, userId: joiner.id });
    agree(); // rejected: the parties may refer
    expect(referralBlock(getBetView(bet.id)!, joiner.id)).toBeNull();
    referDispute({ betId: bet.id, userId: joiner.id });
    agree(); // referred
  });

  it("a referral has no timeout; agreeing meanwhile closes it; a bet without a referee cannot refer", async () => {
    const { creator, joiner, bet } = await refereedBet();
    joinBet({ betId: bet.id, userId: joiner.id });
    proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    rejectSettlement({ betId: bet.id, userId: joiner.id });
    referDispute({ betId: bet.id, userId: creator.id });
    const t0 = Date.now();
    const meanwhile = proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      outcome: "void",
      now: t0,
    });
    expect(meanwhile.respondBy).toBeNull();
    sweep(t0 + 10 * WINDOW);
    expect(getBetView(bet.id)!.status).toBe("active");
    const { bet: after } = approveSettlement({
      betId: bet.id,
      userId: creator.id,
    });
    expect(after.status).toBe("cancelled");
    expect(toBetJson(after).dispute).toBeNull();

    const plain = await activeBet();
    proposeSettlement({
      betId: plain.bet.id,
      userId: plain.creator.id,
      winnerId: plain.creator.id,
    });
    rejectSettlement({ betId: plain.bet.id, userId: plain.joiner.id });
    expectError(
      () => referDispute({ betId: plain.bet.id, userId: plain.creator.id }),
      409,
      NO_REFEREE,
    );
  });
});
