// Bets: input, creating and joining (docs/product-rules.md#amounts-and-limits, #bets), the model rules.
import { describe, expect, it } from "vitest";
import { STORM_TIMEOUT_MS, storm } from "../../../tests/support/storm";
import { BET_CHANGED, createBet, joinBet } from "./bet.server";
import { BET_FULL } from "./bet-policy.server";
import { cancelExpiredBets } from "./bet-lists.server";
import { CODE_ALPHABET, parseBetInput } from "./bet-input.server";
import {
  effectiveStatus,
  findBetByCode,
  getBetForViewer,
} from "./bet-access.server";
import { toBetJson } from "~/routes/api/json";
import { countUnreadActivity } from "../social/activity.server";
import { expectRejection } from "../../../tests/support/expect-error";
import { DAY, input, person } from "../../../tests/support/bettors";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

describe("parseBetInput", () => {
  it("applies the product's create messages and its limits", async () => {
    const error = await expectRejection(
      () =>
        parseBetInput(
          {
            title: "a",
            description: "b",
            amount: 0,
            deadline: "",
            visibility: "x",
          },
          "create",
        ),
      400,
    );
    expect(error.fieldErrors).toMatchObject({
      title: ["Title must be at least 2 characters."],
      description: ["Description must be at least 2 characters."],
      amount: ["Amount must be a positive number."],
      deadline: ["Please select a deadline."],
      visibility: ["Please select visibility."],
    });
    expect(
      (await expectRejection(() => input({ amount: 10.5 }), 400)).fieldErrors
        ?.amount,
    ).toEqual(["Amount must be a whole number of dollars."]);
    expect(
      (await expectRejection(() => input({ amount: 10_001 }), 400)).fieldErrors
        ?.amount,
    ).toEqual(["Amount can be at most $10,000."]);
    expect(
      (await expectRejection(() => input({ title: "x".repeat(101) }), 400))
        .fieldErrors?.title,
    ).toEqual(["Title must be at most 100 characters."]);
    // Limits count code points: 100 emoji are 100 characters.
    expect(input({ title: "🎲".repeat(100) }).title).toBe("🎲".repeat(100));
  });

  it("refuses a deadline in the past", async () => {
    const error = await expectRejection(
      () => input({ deadline: new Date(Date.now() - 1000).toISOString() }),
      400,
      "Deadline must be in the future",
    );
    expect(error.fieldErrors?.deadline).toEqual([
      "Deadline must be in the future",
    ]);
  });

  it("applies the product's edit messages", async () => {
    const error = await expectRejection(
      () =>
        parseBetInput(
          {
            title: "ab",
            description: "short",
            amount: -1,
            deadline: "garbage",
            visibility: "public",
          },
          "edit",
        ),
      400,
    );
    expect(error.fieldErrors).toMatchObject({
      title: ["Title must be at least 3 characters"],
      description: ["Description must be at least 10 characters"],
      amount: ["Amount must be positive"],
      deadline: ["Invalid date format"],
    });
  });
});

describe("createBet", () => {
  it("gives a unique 6-character code from the unambiguous alphabet, the creator as first participant, pending", async () => {
    const alice = await person();
    const codes = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const bet = await createBet({ creatorId: alice.id, input: input() });
      expect(bet.code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{6}$`));
      codes.add(bet.code);
    }
    expect(codes.size).toBe(30);
    const bet = await createBet({
      creatorId: alice.id,
      input: input({ amount: 15 }),
    });
    const json = toBetJson(
      await getBetForViewer({ betId: bet.id, userId: alice.id }),
    );
    expect(json).toMatchObject({
      status: "pending",
      creatorId: alice.id,
      participantIds: [alice.id],
      amount: 15,
      winnerId: null,
    });
    expect((await findBetByCode(bet.code.toLowerCase()))?.id).toBe(bet.id);
  });
});

describe("joinBet", () => {
  it("makes the bet active with two participants and tells the creator", async () => {
    const [alice, bob] = [await person(), await person()];
    const bet = await createBet({ creatorId: alice.id, input: input() });
    const before = await countUnreadActivity(alice.id);
    const view = await joinBet({ betId: bet.id, userId: bob.id });
    expect(view.status).toBe("active");
    expect(view.participants.map((p) => p.id)).toEqual([alice.id, bob.id]);
    expect(await countUnreadActivity(alice.id)).toBe(before + 1);
  });

  it("refuses the creator, a second join, a third person, and a changed bet", async () => {
    const [alice, bob, carol] = [
      await person(),
      await person(),
      await person(),
    ];
    const bet = await createBet({ creatorId: alice.id, input: input() });
    await expectRejection(
      async () => joinBet({ betId: bet.id, userId: alice.id }),
      409,
      "You have already joined this bet.",
    );
    await expectRejection(
      async () =>
        joinBet({
          betId: bet.id,
          userId: bob.id,
          version: bet.updatedAt.getTime() - 5,
        }),
      409,
      BET_CHANGED,
    );
    await joinBet({
      betId: bet.id,
      userId: bob.id,
      version: bet.updatedAt.getTime(),
    });
    await expectRejection(
      async () => joinBet({ betId: bet.id, userId: bob.id }),
      409,
      "You have already joined this bet.",
    );
    await expectRejection(
      async () => joinBet({ betId: bet.id, userId: carol.id }),
      409,
      BET_FULL,
    );
  });

  it("refuses after the deadline: the bet reads as cancelled, and the sweep stores it", async () => {
    const [alice, bob] = [await person(), await person()];
    const bet = await createBet({ creatorId: alice.id, input: input() });
    const later = Date.now() + 2 * DAY;
    expect(effectiveStatus(bet, later)).toBe("cancelled");
    await expectRejection(
      async () => joinBet({ betId: bet.id, userId: bob.id, now: later }),
      409,
    );
    expect(
      await sqlite.prepare("SELECT status FROM bets WHERE id = ?").get(bet.id),
    ).toEqual({ status: "pending" });
    expect(await cancelExpiredBets(later)).toBeGreaterThanOrEqual(1);
    expect(
      await sqlite.prepare("SELECT status FROM bets WHERE id = ?").get(bet.id),
    ).toEqual({ status: "cancelled" });
  });

  it(
    "lets exactly one of 20 simultaneous joiners (separate processes) in",
    { timeout: STORM_TIMEOUT_MS },
    async () => {
      const creator = await person();
      const bet = await createBet({ creatorId: creator.id, input: input() });
      const joiners = [];
      for (let i = 0; i < 20; i++) joiners.push(await person());
      const dbPath = process.env.DATABASE_PATH!;
      const results = await storm(
        "tests/support/join-worker.ts",
        joiners.map((j) => [dbPath, String(bet.id), String(j.id)]),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(
        results
          .filter((r) => !r.ok)
          .every((r) => r.status === 409 && r.message === BET_FULL),
      ).toBe(true);
      const count = (await sqlite
        .prepare("SELECT count(*) AS n FROM bet_participants WHERE bet_id = ?")
        .get(bet.id)) as { n: number };
      expect(count.n).toBe(2);
    },
  );
});
