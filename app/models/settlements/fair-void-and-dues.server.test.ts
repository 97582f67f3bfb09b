// Fair to the end (docs/product-rules.md#void, #getting-paid): calling it off, and getting paid
// (reminders, overdue, nudges), with time passed as `now`.
import { describe, expect, it } from "vitest";
import { onPostgres } from "../../../tests/support/test-database";
import { VOID_WITH_WINNER } from "./settlement-rules.server";
import { parseProposalInput } from "./settlement-input.server";
import {
  approveSettlement,
  proposeSettlement,
  settleBet,
} from "./settlement.server";
import { getSettlement } from "./settlement-view.server";
import { toSettlementJson, toBetJson } from "~/routes/api/json";
import { getBetView } from "../bets/bet-access.server";
import { listActivity } from "../social/activity.server";
import {
  NOT_OWED,
  NOT_WINNER,
  getPaymentRecord,
  describePaymentRecord,
  nudgePayment,
  paymentRecordQuery,
} from "../payments/dues.server";
import { getPayableBet } from "../payments/payment.server";
import { getUserById } from "../accounts/user.server";
import { listJobs } from "../jobs/jobs.server";
import { DomainError } from "~/utils/errors";
import { activeBet } from "../../../tests/support/factories";
import { expectRejection } from "../../../tests/support/expect-error";
import { H, WINDOW, kinds, sweep } from "../../../tests/support/fair-clock";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

describe("calling it off (docs/product-rules.md#void)", () => {
  it("parses the void outcome from JSON and the form's third choice", async () => {
    expect(parseProposalInput({ outcome: "void" })).toEqual({
      outcome: "void",
      winnerId: null,
      notes: null,
    });
    expect(parseProposalInput({ winnerId: "void" })).toMatchObject({
      outcome: "void",
    });
    await expectRejection(
      () => parseProposalInput({ outcome: "void", winnerId: 3 }),
      400,
      VOID_WITH_WINNER,
    );
    await expectRejection(() => parseProposalInput({ outcome: "draw" }), 400);
    await expectRejection(() => parseProposalInput({ outcome: "winner" }), 400);
  });

  it("approved, the bet is cancelled with voidedAt: no winner, no payment, counts unchanged", async () => {
    const { creator, joiner, bet } = await activeBet();
    const proposal = await proposeSettlement({
      betId: bet.id,
      userId: creator.id,
      outcome: "void",
    });
    expect(toSettlementJson(proposal, "USD")).toMatchObject({
      outcome: "void",
      winnerId: null,
      loserId: null,
      feeAmount: null,
    });
    const { bet: after, settlement } = await approveSettlement({
      betId: bet.id,
      userId: joiner.id,
    });
    expect(after.status).toBe("cancelled");
    expect(after.voidedAt).not.toBeNull();
    expect(after.winnerId).toBeNull();
    expect(after.paymentDueAt).toBeNull();
    expect(settlement).toMatchObject({ resolution: "agreed", outcome: "void" });
    expect(await getUserById(creator.id)).toMatchObject({
      winCount: 0,
      lossCount: 0,
    });
    expect(await getUserById(joiner.id)).toMatchObject({
      winCount: 0,
      lossCount: 0,
    });
    await expectRejection(
      async () => getPayableBet({ betId: bet.id, userId: creator.id }),
      409,
    );
    expect(toBetJson(after)).toMatchObject({ status: "cancelled" });
    expect(await listJobs(bet.id, "payment_due")).toHaveLength(0);
  });

  it("silence calls it off too; a direct settle offers it as a proposal", async () => {
    const { creator, joiner, bet } = await activeBet();
    const t0 = Date.now();
    const result = await settleBet({
      betId: bet.id,
      userId: creator.id,
      outcome: "void",
      now: t0,
    });
    expect(result.kind).toBe("proposed");
    await sweep(t0 + WINDOW);
    expect(await getBetView(bet.id)).toMatchObject({ status: "cancelled" });
    expect(
      (await getSettlement({ betId: bet.id, userId: joiner.id })).resolution,
    ).toBe("timeout");
    expect((await getUserById(creator.id))?.lossCount).toBe(0);
  });
});

describe("getting paid (docs/product-rules.md#getting-paid)", () => {
  // SQLite's planner, read through EXPLAIN QUERY PLAN: PostgreSQL plans by
  // table statistics and scans a table this small whatever its indexes.
  it.skipIf(onPostgres())(
    "reads a payment record through the loser index, not a scan of every settlement",
    async () => {
      const { sql, params } = paymentRecordQuery().toSQL();
      const values = params.map((p) =>
        typeof p === "object" && p !== null && "name" in p
          ? p.name === "userId"
            ? 1
            : Date.now()
          : p,
      );
      const plan = (
        await sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...values)
      ).map((row) => (row as { detail: string }).detail);
      expect(plan).toContainEqual(
        expect.stringContaining(
          "settlements USING INDEX settlements_loser_idx",
        ),
      );
      expect(plan).not.toContainEqual(
        expect.stringMatching(/^SCAN settlements/),
      );
    },
  );

  it("binds no value to the partial index's column, so SQLite does not recompile it on every run", () => {
    // SQLite expires a statement each time it is run when a bound value is
    // compared with the column of a partial index (its plan could depend on
    // that value): payments_one_completed_per_bet is `WHERE status =
    // 'completed'`, so the status is written into the SQL (docs/decisions/archive/0834-no-bound-value-against-a-partial-index.md).
    const { sql, params } = paymentRecordQuery().toSQL();
    expect(sql).toContain(`"payments"."status" = 'completed'`);
    expect(params).not.toContain("completed");
  });

  it("reminds the loser, marks overdue once, and keeps the payment record", async () => {
    const { creator, joiner, bet } = await activeBet(50);
    const t0 = Date.now();
    await settleBet({
      betId: bet.id,
      userId: creator.id,
      winnerId: joiner.id,
      now: t0,
    });
    expect(
      (await getSettlement({ betId: bet.id, userId: joiner.id })).resolution,
    ).toBe("conceded");
    expect((await getBetView(bet.id))!.paymentDueAt!.getTime()).toBe(
      t0 + WINDOW,
    );
    await sweep(t0 + 24 * H);
    expect((await kinds(creator.id))[0]).toBe("payment_due");
    expect(await getPaymentRecord(creator.id, t0 + 24 * H)).toEqual({
      owed: 1,
      paid: 0,
      paidOnTime: 0,
      overdue: 0,
    });
    await sweep(t0 + WINDOW);
    await sweep(t0 + WINDOW + 10);
    expect(
      (await kinds(creator.id)).filter((k) => k === "payment_overdue"),
    ).toHaveLength(1);
    const record = await getPaymentRecord(creator.id, t0 + WINDOW);
    expect(record).toEqual({ owed: 1, paid: 0, paidOnTime: 0, overdue: 1 });
    expect(describePaymentRecord(record)).toBe(
      "Paid 0 of 1 lost bet; 1 overdue",
    );
    expect(
      describePaymentRecord({ owed: 5, paid: 5, paidOnTime: 5, overdue: 0 }),
    ).toBe("Paid 5 of 5 lost bets, all on time");
    expect(await getPaymentRecord(joiner.id)).toEqual({
      owed: 0,
      paid: 0,
      paidOnTime: 0,
      overdue: 0,
    });
  });

  it("lets only the winner nudge, once per interval, while unpaid", async () => {
    const { creator, joiner, bet } = await activeBet(50);
    await expectRejection(
      async () => nudgePayment({ betId: bet.id, userId: joiner.id }),
      409,
      NOT_OWED,
    );
    await settleBet({ betId: bet.id, userId: creator.id, winnerId: joiner.id });
    await expectRejection(
      async () => nudgePayment({ betId: bet.id, userId: creator.id }),
      403,
      NOT_WINNER,
    );
    const t0 = Date.now();
    await nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 });
    expect((await listActivity(creator.id))[0]).toMatchObject({
      type: "payment_nudge",
      betId: bet.id,
    });
    const tooSoon = (await expectRejection(
      async () =>
        nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 + H }),
      429,
      "You can nudge again in 23 hours.",
    )) as DomainError & { retryAfterSeconds: number };
    expect(tooSoon.retryAfterSeconds).toBe(23 * 3600);
    await nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 + 24 * H });
    expect(
      (await kinds(creator.id)).filter((k) => k === "payment_nudge"),
    ).toHaveLength(2);
    // Paid: nothing more to nudge.
    await sqlite
      .prepare(
        "UPDATE settlements SET payment_status = 'completed' WHERE bet_id = ?",
      )
      .run(bet.id);
    await expectRejection(
      async () =>
        nudgePayment({ betId: bet.id, userId: joiner.id, now: t0 + 96 * H }),
      409,
    );
  });
});
