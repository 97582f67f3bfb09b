// Fair to the end (rulings 21–25): answer windows, calling it off, the
// referee, getting paid — the model rules, with time passed as `now`.
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
  VOID_WITH_WINNER,
  parseProposalInput,
} from "./settlement-rules.server";
import {
  approveSettlement,
  proposeSettlement,
  rejectSettlement,
  settleBet,
} from "./settlement.server";
import { getSettlement } from "./settlement-view.server";
import { referDispute, ruleDispute } from "./settlement-referee.server";
import { toSettlementJson, toBetJson } from "~/routes/api/json";
import {
  REFEREE_CANNOT_JOIN,
  REFEREE_NOT_FRIEND,
  parseBetInput,
} from "./bet-input.server";
import { createBet, joinBet, updateBet } from "./bet.server";
import { getBetForViewer, getBetView } from "./bet-access.server";
import { listActivity } from "./activity.server";
import {
  NOT_OWED,
  NOT_WINNER,
  getPaymentRecord,
  describePaymentRecord,
  nudgePayment,
} from "./dues.server";
import { getPayableBet } from "./payment.server";
import { getUserById } from "./user.server";
import { acceptFriendRequest, sendFriendRequest } from "./friend.server";
import { listJobs, runDueJobs } from "./jobs.server";
import { JOB_HANDLERS } from "~/models/background-work.server";
import { DomainError } from "~/utils/errors";
import { activeBet, person } from "../../tests/support/factories";
import { STORM_TIMEOUT_MS, storm } from "../../tests/support/storm";
import { expectError } from "../../tests/support/expect-error";

const H = 3_600_000;
const WINDOW = 72 * H;

const sweep = (now: number) => runDueJobs({ handlers: JOB_HANDLERS, now });
const kinds = (userId: number) => listActivity(userId).map((e) => e.type);
const count = (sql: string, ...args: unknown[]) =>
  (sqlite.prepare(sql).get(...args) as { n: number }).n;

describe("answer window (ruling 21)", () => {
  it("approves for the silent side at respondBy through the settle path, once", async () => {
    const { creator, joiner, bet } = await activeBet(100);
    const t0 = Date.now();
    const proposal = proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
      now: t0,
    });
    expect(proposal.respondBy?.getTime()).toBe(t0 + WINDOW);
    // The API shows the fee from the moment a winner is proposed (§6b).
    expect(toSettlementJson(proposal)).toMatchObject({
      outcome: "winner",
      respondBy: new Date(t0 + WINDOW).toISOString(),
      resolution: null,
      feeAmount: 2.5,
      netAmount: 97.5,
    });
    sweep(t0 + WINDOW - 1);
    expect(getBetView(bet.id)!.status).toBe("active");
    const report = sweep(t0 + WINDOW);
    expect(report.failed).toBe(0);
    const settled = getBetView(bet.id)!;
    expect(settled).toMatchObject({ status: "settled", winnerId: joiner.id });
    expect(settled.paymentDueAt!.getTime()).toBe(t0 + WINDOW + WINDOW);
    expect(getSettlement({ betId: bet.id, userId: creator.id })).toMatchObject({
      resolution: "timeout",
      creatorApproved: true,
      participantApproved: true,
      feeCents: 250,
      netCents: 9750,
    });
    expect(getUserById(joiner.id)).toMatchObject({ winCount: 1 });
    expect(getUserById(creator.id)).toMatchObject({ lossCount: 1 });
    expect(kinds(creator.id)[0]).toBe("bet_settled");
    expect(kinds(joiner.id)[0]).toBe("bet_settled");
    // A later sweep finds nothing to do again.
    sweep(t0 + WINDOW + 1000);
    expect(
      count(
        "SELECT count(*) AS n FROM bet_events WHERE bet_id = ? AND type = 'settled'",
        bet.id,
      ),
    ).toBe(1);
    expect(getUserById(joiner.id)).toMatchObject({ winCount: 1 });
  });

  it("reminds the silent side a third in and a twelfth before, once each", async () => {
    const { creator, joiner, bet } = await activeBet();
    const t0 = Date.now();
    proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
      now: t0,
    });
    const reminders = () =>
      kinds(joiner.id).filter((k) => k === "settlement_reminder").length;
    sweep(t0 + 24 * H - 1);
    expect(reminders()).toBe(0);
    sweep(t0 + 24 * H);
    expect(reminders()).toBe(1);
    sweep(t0 + 24 * H + 5);
    expect(reminders()).toBe(1);
    sweep(t0 + 66 * H);
    expect(reminders()).toBe(2);
    expect(listActivity(joiner.id)[0]!.message).toContain(
      "approved automatically",
    );
    expect(kinds(creator.id)).not.toContain("settlement_reminder");
  });

  it("does not time out or remind a proposal that was answered or replaced", async () => {
    const { creator, joiner, bet } = await activeBet();
    const t0 = Date.now();
    proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
      now: t0,
    });
    rejectSettlement({ betId: bet.id, userId: joiner.id });
    proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
      now: t0 + 10 * H,
    });
    // The first proposal's timeout and reminders come due: nothing happens.
    sweep(t0 + WINDOW);
    expect(getBetView(bet.id)!.status).toBe("active");
    expect(kinds(joiner.id)).not.toContain("settlement_reminder");
    // The second one's do.
    sweep(t0 + 10 * H + WINDOW);
    expect(getBetView(bet.id)).toMatchObject({
      status: "settled",
      winnerId: joiner.id,
    });
  });

  it(
    "an approval in the same instant as the timeout settles exactly once",
    { timeout: STORM_TIMEOUT_MS },
    async () => {
      for (let round = 0; round < 2; round++) {
        const { creator, joiner, bet } = await activeBet();
        const t0 = Date.now() - WINDOW - 1000;
        proposeSettlement({
          betId: bet.id,
          userId: joiner.id,
          winnerId: joiner.id,
          now: t0,
        });
        const at = String(t0 + WINDOW);
        const dbPath = process.env.DATABASE_PATH!;
        const results = await storm("tests/support/settle-worker.ts", [
          ...Array.from({ length: 2 }, () => [
            dbPath,
            "approve",
            String(bet.id),
            String(creator.id),
            at,
          ]),
          ...Array.from({ length: 2 }, () => [
            dbPath,
            "sweep",
            String(bet.id),
            "0",
            at,
          ]),
        ]);
        const approvals = results.slice(0, 2);
        const sweeps = results.slice(2) as unknown as { ran: number }[];
        // Every approval that lost answered 409; nothing failed.
        expect(
          approvals.filter((r) => !r.ok).every((r) => r.status === 409),
        ).toBe(true);
        expect(
          count(
            "SELECT count(*) AS n FROM bet_events WHERE bet_id = ? AND type = 'settled'",
            bet.id,
          ),
        ).toBe(1);
        expect(getUserById(joiner.id)).toMatchObject({ winCount: 1 });
        expect(getUserById(creator.id)).toMatchObject({ lossCount: 1 });
        const resolution = getSettlement({
          betId: bet.id,
          userId: creator.id,
        }).resolution;
        const approved = approvals.filter((r) => r.ok).length;
        expect(approved + (resolution === "timeout" ? 1 : 0)).toBe(1);
        // Each job ran once, whichever process claimed it.
        const timeout = listJobs(bet.id, "settlement_timeout");
        expect(timeout).toHaveLength(1);
        expect(timeout[0]!.doneAt).not.toBeNull();
        expect(sweeps.reduce((sum, r) => sum + r.ran, 0)).toBeGreaterThan(0);
      }
    },
  );
});

describe("calling it off (ruling 22)", () => {
  it("parses the void outcome from JSON and the form's third choice", () => {
    expect(parseProposalInput({ outcome: "void" })).toEqual({
      outcome: "void",
      winnerId: null,
      notes: null,
    });
    expect(parseProposalInput({ winnerId: "void" })).toMatchObject({
      outcome: "void",
    });
    expectError(
      () => parseProposalInput({ outcome: "void", winnerId: 3 }),
      400,
      VOID_WITH_WINNER,
    );
    expectError(() => parseProposalInput({ outcome: "draw" }), 400);
    expectError(() => parseProposalInput({ outcome: "winner" }), 400);
  });

  it("approved, the bet is cancelled with voidedAt: no winner, no payment, counts unchanged", async () => {
    const { creator, joiner, bet } = await activeBet();
    const proposal = proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      outcome: "void",
    });
    expect(toSettlementJson(proposal)).toMatchObject({
      outcome: "void",
      winnerId: null,
      loserId: null,
      feeAmount: null,
    });
    const { bet: after, settlement } = approveSettlement({
      betId: bet.id,
      userId: joiner.id,
    });
    expect(after.status).toBe("cancelled");
    expect(after.voidedAt).not.toBeNull();
    expect(after.winnerId).toBeNull();
    expect(after.paymentDueAt).toBeNull();
    expect(settlement).toMatchObject({ resolution: "agreed", outcome: "void" });
    expect(getUserById(creator.id)).toMatchObject({
      winCount: 0,
      lossCount: 0,
    });
    expect(getUserById(joiner.id)).toMatchObject({ winCount: 0, lossCount: 0 });
    expectError(
      () => getPayableBet({ betId: bet.id, userId: creator.id }),
      409,
    );
    expect(toBetJson(after)).toMatchObject({ status: "cancelled" });
    expect(listJobs(bet.id, "payment_due")).toHaveLength(0);
  });

  it("silence calls it off too; a direct settle offers it as a proposal", async () => {
    const { creator, joiner, bet } = await activeBet();
    const t0 = Date.now();
    const result = settleBet({
      betId: bet.id,
      userId: creator.id,
      outcome: "void",
      now: t0,
    });
    expect(result.kind).toBe("proposed");
    sweep(t0 + WINDOW);
    expect(getBetView(bet.id)).toMatchObject({ status: "cancelled" });
    expect(getSettlement({ betId: bet.id, userId: joiner.id }).resolution).toBe(
      "timeout",
    );
    expect(getUserById(creator.id)?.lossCount).toBe(0);
  });
});

describe("getting paid (rulings 24, 25)", () => {
  it("reminds the loser, marks overdue once, and keeps the payment record", async () => {
    const { creator, joiner, bet } = await activeBet(50);
    const t0 = Date.now();
    settleBet({
      betId: bet.id,
      userId: creator.id,
      winnerId: joiner.id,
      now: t0,
    });
    expect(getSettlement({ betId: bet.id, userId: joiner.id }).resolution).toBe(
      "conceded",
    );
    expect(getBetView(bet.id)!.paymentDueAt!.getTime()).toBe(t0 + WINDOW);
    sweep(t0 + 24 * H);
    expect(kinds(creator.id)[0]).toBe("payment_due");
    expect(getPaymentRecord(creator.id, t0 + 24 * H)).toEqual({
      owed: 1,
      paid: 0,
      paidOnTime: 0,
      overdue: 0,
    });
    sweep(t0 + WINDOW);
    sweep(t0 + WINDOW + 10);
    expect(
      kinds(creator.id).filter((k) => k === "payment_overdue"),
    ).toHaveLength(1);
    const record = getPaymentRecord(creator.id, t0 + WINDOW);
    expect(record).toEqual({ owed: 1, paid: 0, paidOnTime: 0, overdue: 1 });
    expect(describePaymentRecord(record)).toBe(
      "Paid 0 of 1 lost bet; 1 overdue",
    );
    expect(
      describePaymentRecord({ owed: 5, paid: 5, paidOnTime: 5, overdue: 0 }),
    ).toBe("Paid 5 of 5 lost bets, all on time");
    expect(getPaymentRecord(joiner.id)).toEqual({
      owed: 0,
      paid: 0,
      paidOnTime: 0,
      overdue: 0,
    });
  });

  it("lets only the winner nudge, once per interval, while unpaid", async () => {
    const { creator, joiner, bet } = await activeBet(50);
    expectError(
      () => nudgePayment({ betId: bet.id, userId: joiner.id }),
      409,
      NOT_OWED,
    );
    settleBet({ betId: bet.id, userId: creator.id, winnerId: joiner.id });
    expectError(
      () => nudgePayment({ betId: bet.id, userId: creator.id }),
      403,
      NOT_WINNER,
    );
    const t0 = Date.now();
    nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 });
    expect(listActivity(creator.id)[0]).toMatchObject({
      type: "payment_nudge",
      betId: bet.id,
    });
    const tooSoon = expectError(
      () => nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 + H }),
      429,
      "You can nudge again in 23 hours.",
    ) as DomainError & { retryAfterSeconds: number };
    expect(tooSoon.retryAfterSeconds).toBe(23 * 3600);
    nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 + 24 * H });
    expect(kinds(creator.id).filter((k) => k === "payment_nudge")).toHaveLength(
      2,
    );
    // Paid: nothing more to nudge.
    sqlite
      .prepare(
        "UPDATE settlements SET payment_status = 'completed' WHERE bet_id = ?",
      )
      .run(bet.id);
    expectError(
      () =>
        nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 + 96 * H }),
      409,
    );
  });
});

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

describe("the referee (ruling 23)", () => {
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
