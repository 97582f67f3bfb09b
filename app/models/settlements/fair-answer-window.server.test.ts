// Fair to the end (docs/product-rules.md#answer-windows): the answer window — approval on silence,
// the reminders — with time passed as `now`.
import { describe, expect, it } from "vitest";
import { proposeSettlement, rejectSettlement } from "./settlement.server";
import { getSettlement } from "./settlement-view.server";
import { toSettlementJson } from "~/routes/api/json";
import { getBetView } from "../bets/bet-access.server";
import { listActivity } from "../social/activity.server";
import { getUserById } from "../accounts/user.server";
import { listJobs } from "../jobs/jobs.server";
import { activeBet } from "../../../tests/support/factories";
import { STORM_TIMEOUT_MS, storm } from "../../../tests/support/storm";
import {
  H,
  WINDOW,
  count,
  kinds,
  sweep,
} from "../../../tests/support/fair-clock";

describe("answer window (docs/product-rules.md#answer-windows)", () => {
  it("approves for the silent side at respondBy through the settle path, once", async () => {
    const { creator, joiner, bet } = await activeBet(100);
    const t0 = Date.now();
    const proposal = await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
      now: t0,
    });
    expect(proposal.respondBy?.getTime()).toBe(t0 + WINDOW);
    // The API shows the fee from the moment a winner is proposed (docs/api.md#shapes).
    expect(toSettlementJson(proposal, "USD")).toMatchObject({
      outcome: "winner",
      respondBy: new Date(t0 + WINDOW).toISOString(),
      resolution: null,
      feeAmount: 2.5,
      netAmount: 97.5,
    });
    await sweep(t0 + WINDOW - 1);
    expect((await getBetView(bet.id))!.status).toBe("active");
    const report = await sweep(t0 + WINDOW);
    expect(report.failed).toBe(0);
    const settled = (await getBetView(bet.id))!;
    expect(settled).toMatchObject({ status: "settled", winnerId: joiner.id });
    expect(settled.paymentDueAt!.getTime()).toBe(t0 + WINDOW + WINDOW);
    expect(
      await getSettlement({ betId: bet.id, userId: creator.id }),
    ).toMatchObject({
      resolution: "timeout",
      creatorApproved: true,
      participantApproved: true,
      feeCents: 250,
      netCents: 9750,
    });
    expect(await getUserById(joiner.id)).toMatchObject({ winCount: 1 });
    expect(await getUserById(creator.id)).toMatchObject({ lossCount: 1 });
    expect((await kinds(creator.id))[0]).toBe("bet_settled");
    expect((await kinds(joiner.id))[0]).toBe("bet_settled");
    // A later sweep finds nothing to do again.
    await sweep(t0 + WINDOW + 1000);
    expect(
      await count(
        "SELECT count(*) AS n FROM bet_events WHERE bet_id = ? AND type = 'settled'",
        bet.id,
      ),
    ).toBe(1);
    expect(await getUserById(joiner.id)).toMatchObject({ winCount: 1 });
  });

  it("reminds the silent side a third in and a twelfth before, once each", async () => {
    const { creator, joiner, bet } = await activeBet();
    const t0 = Date.now();
    await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
      now: t0,
    });
    const reminders = async () =>
      (await kinds(joiner.id)).filter((k) => k === "settlement_reminder")
        .length;
    await sweep(t0 + 24 * H - 1);
    expect(await reminders()).toBe(0);
    await sweep(t0 + 24 * H);
    expect(await reminders()).toBe(1);
    await sweep(t0 + 24 * H + 5);
    expect(await reminders()).toBe(1);
    await sweep(t0 + 66 * H);
    expect(await reminders()).toBe(2);
    expect((await listActivity(joiner.id))[0]!.message).toContain(
      "approved automatically",
    );
    expect(await kinds(creator.id)).not.toContain("settlement_reminder");
  });

  it("does not time out or remind a proposal that was answered or replaced", async () => {
    const { creator, joiner, bet } = await activeBet();
    const t0 = Date.now();
    await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
      now: t0,
    });
    await rejectSettlement({ betId: bet.id, userId: joiner.id });
    await proposeSettlement({
      betId: bet.id,
      userId: joiner.id,
      winnerId: joiner.id,
      now: t0 + 10 * H,
    });
    // The first proposal's timeout and reminders come due: nothing happens.
    await sweep(t0 + WINDOW);
    expect((await getBetView(bet.id))!.status).toBe("active");
    expect(await kinds(joiner.id)).not.toContain("settlement_reminder");
    // The second one's do.
    await sweep(t0 + 10 * H + WINDOW);
    expect(await getBetView(bet.id)).toMatchObject({
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
        await proposeSettlement({
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
          await count(
            "SELECT count(*) AS n FROM bet_events WHERE bet_id = ? AND type = 'settled'",
            bet.id,
          ),
        ).toBe(1);
        expect(await getUserById(joiner.id)).toMatchObject({ winCount: 1 });
        expect(await getUserById(creator.id)).toMatchObject({ lossCount: 1 });
        const resolution = (
          await getSettlement({
            betId: bet.id,
            userId: creator.id,
          })
        ).resolution;
        // At respondBy the window has closed: whichever came first, the
        // approval or the sweep, settled it as the timeout does.
        expect(resolution).toBe("timeout");
        expect(approvals.filter((r) => r.ok).length).toBeLessThanOrEqual(1);
        // Each job ran once, whichever process claimed it.
        const timeout = await listJobs(bet.id, "settlement_timeout");
        expect(timeout).toHaveLength(1);
        expect(timeout[0]!.doneAt).not.toBeNull();
        expect(sweeps.reduce((sum, r) => sum + r.ran, 0)).toBeGreaterThan(0);
      }
    },
  );
});
