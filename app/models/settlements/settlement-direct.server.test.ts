// Settlements: the creator's direct settle (docs/product-rules.md#settlement) and concurrent
// approvals, the model rules.
import { describe, expect, it } from "vitest";
import { LIVE_PROPOSAL, NOT_CREATOR } from "./settlement-rules.server";
import { proposeSettlement, settleBet } from "./settlement.server";
import { getUserById } from "../accounts/user.server";
import { listActivity } from "../social/activity.server";
import { activeBet } from "../../../tests/support/factories";
import { STORM_TIMEOUT_MS, storm } from "../../../tests/support/storm";
import { expectRejection } from "../../../tests/support/expect-error";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

describe("direct settle by the creator (docs/product-rules.md#settlement)", () => {
  it("settles at once when the creator concedes", async () => {
    const { creator, joiner, bet } = await activeBet(40);
    const result = await settleBet({
      betId: bet.id,
      userId: creator.id,
      winnerId: joiner.id,
    });
    expect(result.kind).toBe("settled");
    if (result.kind !== "settled") return;
    expect(result.bet.status).toBe("settled");
    expect(result.settlement).toMatchObject({
      winnerId: joiner.id,
      loserId: creator.id,
      feeCents: 100,
      netCents: 3900,
    });
    expect((await getUserById(joiner.id))?.winCount).toBe(1);
    expect((await listActivity(joiner.id))[0]).toMatchObject({
      type: "bet_settled",
    });
  });

  it("only proposes when the creator names themself, and refuses others", async () => {
    const { creator, joiner, bet } = await activeBet();
    await expectRejection(
      async () =>
        settleBet({ betId: bet.id, userId: joiner.id, winnerId: joiner.id }),
      403,
      NOT_CREATOR,
    );
    const result = await settleBet({
      betId: bet.id,
      userId: creator.id,
      winnerId: creator.id,
    });
    expect(result.kind).toBe("proposed");
    expect((await getUserById(creator.id))?.winCount).toBe(0);
    await expectRejection(
      async () =>
        settleBet({ betId: bet.id, userId: creator.id, winnerId: joiner.id }),
      409,
      LIVE_PROPOSAL,
    );
    await expectRejection(
      async () => settleBet({ betId: bet.id, userId: creator.id, winnerId: 0 }),
      409,
    );
  });
});

describe("concurrency", () => {
  it(
    "10 simultaneous approvals (separate processes) settle once",
    { timeout: STORM_TIMEOUT_MS },
    async () => {
      const { creator, joiner, bet } = await activeBet();
      await proposeSettlement({
        betId: bet.id,
        userId: joiner.id,
        winnerId: joiner.id,
      });
      const dbPath = process.env.DATABASE_PATH!;
      const args = Array.from({ length: 10 }, () => [
        dbPath,
        "approve",
        String(bet.id),
        String(creator.id),
      ]);
      const results = await storm("tests/support/settle-worker.ts", args);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).every((r) => r.status === 409)).toBe(
        true,
      );
      expect(await getUserById(joiner.id)).toMatchObject({ winCount: 1 });
      expect(await getUserById(creator.id)).toMatchObject({ lossCount: 1 });
      expect(
        await sqlite
          .prepare(
            "SELECT count(*) AS n FROM bet_events WHERE bet_id = ? AND type = 'settled'",
          )
          .get(bet.id),
      ).toEqual({ n: 1 });
    },
  );
});
