// Fair to the end (docs/product-rules.md#referee): the referee, with time passed as `now`.
import { describe, expect, it } from "vitest";
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
import { REFEREE_NOT_FRIEND, parseBetInput } from "../bets/bet-input.server";
import { REFEREE_CANNOT_JOIN } from "../bets/bet-policy.server";
import { createBet, joinBet, updateBet } from "../bets/bet.server";
import { getBetForViewer, getBetView } from "../bets/bet-access.server";
import { listActivity } from "../social/activity.server";
import { getUserById } from "../accounts/user.server";
import {
  acceptFriendRequest,
  sendFriendRequest,
} from "../social/friend.server";
import { activeBet, person } from "../../../tests/support/factories";
import { expectRejection } from "../../../tests/support/expect-error";
import { WINDOW, kinds, sweep } from "../../../tests/support/fair-clock";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

async function friends(a: number, b: number) {
  await sendFriendRequest({ userId: a, friendId: b });
  await acceptFriendRequest({ userId: b, requesterId: a });
}

async function refereedBet(visibility: "public" | "private" = "public") {
  const creator = await person("rc");
  const joiner = await person("rj");
  const referee = await person("rr");
  await friends(creator.id, referee.id);
  const bet = await createBet({
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
    await expectRejection(
      async () =>
        createBet({ creatorId: creator.id, input: input(stranger.id) }),
      400,
      REFEREE_NOT_FRIEND,
    );
    await expectRejection(
      async () =>
        createBet({ creatorId: creator.id, input: input(creator.id) }),
      400,
      REFEREE_NOT_FRIEND,
    );
    await expectRejection(() => input("abc"), 400, REFEREE_NOT_FRIEND);
    const bet = await createBet({ creatorId: creator.id, input: input(null) });
    expect(bet.refereeId).toBeNull();
    await friends(creator.id, stranger.id);
    const edited = await updateBet({
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
    expect(
      (await getBetForViewer({ betId: bet.id, userId: referee.id })).id,
    ).toBe(bet.id);
    await expectRejection(
      async () => joinBet({ betId: bet.id, userId: referee.id }),
      409,
      REFEREE_CANNOT_JOIN,
    );
    await sqlite
      .prepare("INSERT INTO bet_access (bet_id, user_id) VALUES (?, ?)")
      .run(bet.id, joiner.id);
    await joinBet({ betId: bet.id, userId: joiner.id });
    await expectRejection(
      async () => referDispute({ betId: bet.id, userId: creator.id }),
      409,
      REFER_NOTHING_REJECTED,
    );
    await expectRejection(
      async () =>
        ruleDispute({
          betId: bet.id,
          userId: referee.id,
          outcome: "winner",
          winnerId: creator.id,
        }),
      409,
      NOT_REFERRED,
    );
    await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    await expectRejection(
      async () => referDispute({ betId: bet.id, userId: creator.id }),
      409,
      REFER_LIVE_PROPOSAL,
    );
    // The referee cannot approve for a side.
    await expectRejection(
      async () => approveSettlement({ betId: bet.id, userId: referee.id }),
      403,
    );
    await rejectSettlement({ betId: bet.id, userId: joiner.id });
    await expectRejection(
      async () => referDispute({ betId: bet.id, userId: referee.id }),
      403,
    );
    const referred = await referDispute({ betId: bet.id, userId: joiner.id });
    expect(toBetJson(referred).dispute).toMatchObject({
      referredBy: joiner.id,
    });
    expect((await listActivity(referee.id))[0]).toMatchObject({
      type: "referee_requested",
      betId: bet.id,
    });
    await expectRejection(
      async () => referDispute({ betId: bet.id, userId: creator.id }),
      409,
      ALREADY_REFERRED,
    );
    await expectRejection(
      async () =>
        ruleDispute({
          betId: bet.id,
          userId: creator.id,
          outcome: "winner",
          winnerId: creator.id,
        }),
      403,
      NOT_REFEREE,
    );
    await expectRejection(
      async () =>
        ruleDispute({
          betId: bet.id,
          userId: referee.id,
          outcome: "winner",
          winnerId: referee.id,
        }),
      400,
    );
    const { bet: ruled, settlement } = await ruleDispute({
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
    expect((await kinds(creator.id))[0]).toBe("referee_ruled");
    expect((await kinds(joiner.id))[0]).toBe("referee_ruled");
    expect((await getUserById(joiner.id))?.winCount).toBe(1);
    await expectRejection(
      async () =>
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
    const agree = async () => {
      for (const who of people) {
        const view = await getBetForViewer({ betId: bet.id, userId: who.id });
        const live = (await settlementViewOf(view, who.id)) !== null;
        const row = (await getBetView(bet.id))!;
        expect(
          await referralBlockForPage(view, who.id, live),
          who.username,
        ).toEqual(await referralBlock(row, who.id));
      }
    };
    await agree(); // pending
    await joinBet({ betId: bet.id, userId: joiner.id });
    await agree(); // active, nothing rejected
    await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    await agree(); // a live proposal
    await rejectSettlement({ betId: bet.id, userId: joiner.id });
    await agree(); // rejected: the parties may refer
    expect(
      await referralBlock((await getBetView(bet.id))!, joiner.id),
    ).toBeNull();
    await referDispute({ betId: bet.id, userId: joiner.id });
    await agree(); // referred
  });

  it("a referral has no timeout; agreeing meanwhile closes it; a bet without a referee cannot refer", async () => {
    const { creator, joiner, bet } = await refereedBet();
    await joinBet({ betId: bet.id, userId: joiner.id });
    await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    await rejectSettlement({ betId: bet.id, userId: joiner.id });
    await referDispute({ betId: bet.id, userId: creator.id });
    const t0 = Date.now();
    const meanwhile = await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      outcome: "void",
      now: t0,
    });
    expect(meanwhile.respondBy).toBeNull();
    await sweep(t0 + 10 * WINDOW);
    expect((await getBetView(bet.id))!.status).toBe("active");
    const { bet: after } = await approveSettlement({
      betId: bet.id,
      userId: creator.id,
    });
    expect(after.status).toBe("cancelled");
    expect(toBetJson(after).dispute).toBeNull();

    const plain = await activeBet();
    await proposeSettlement({
      betId: plain.bet.id,
      userId: plain.creator.id,
      winnerId: plain.creator.id,
    });
    await rejectSettlement({ betId: plain.bet.id, userId: plain.joiner.id });
    await expectRejection(
      async () =>
        referDispute({ betId: plain.bet.id, userId: plain.creator.id }),
      409,
      NO_REFEREE,
    );
  });
});
