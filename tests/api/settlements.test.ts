import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import { activeBetOverHttp } from "./settle-helpers";

const server = useServer();

const NO_WINNER = "Please select a winner to settle the bet.";

describe("POST /api/bets/{id}/propose-settlement", () => {
  it("201 with the proposer's side approved; 400, 401, 403, 404, 409", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(server.url);
    const stranger = await signUp(server.url);
    const path = `/api/bets/${betId}/propose-settlement`;

    expect(
      (await new Client(server.url).post(path, { winnerId: 1 })).status,
    ).toBe(401);
    const missing = await joiner.client.post(path, {});
    expect(missing.status).toBe(400);
    expect(missing.data).toEqual({
      error: NO_WINNER,
      fieldErrors: { winnerId: [NO_WINNER] },
    });
    const outsider = await joiner.client.post(path, {
      winnerId: stranger.user.id,
    });
    expect(outsider.status).toBe(400);
    expect(outsider.data.error).toBe(NO_WINNER);
    const longNotes = await joiner.client.post(path, {
      winnerId: joiner.user.id,
      settlementNotes: "x".repeat(501),
    });
    expect(longNotes.status).toBe(400);
    expect(longNotes.data.fieldErrors.settlementNotes).toEqual([
      "Notes must be at most 500 characters.",
    ]);
    expect(
      (await stranger.client.post(path, { winnerId: joiner.user.id })).status,
    ).toBe(403);
    expect(
      (
        await joiner.client.post("/api/bets/999999/propose-settlement", {
          winnerId: 1,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await joiner.client.post("/api/bets/abc/propose-settlement", {
          winnerId: 1,
        })
      ).status,
    ).toBe(404);

    const res = await joiner.client.post(path, {
      winnerId: joiner.user.id,
      settlementNotes: "  Fair and square  ",
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      id: betId,
      betId,
      winnerId: joiner.user.id,
      loserId: creator.user.id,
      proposedBy: joiner.user.id,
      settlementNotes: "Fair and square",
      creatorApproved: false,
      participantApproved: true,
      settledAt: null,
      paymentStatus: "pending",
    });
    const second = await creator.client.post(path, {
      winnerId: creator.user.id,
    });
    expect(second.status).toBe(409);
    expect(second.data.error).toBe(
      "A settlement has already been proposed for this bet.",
    );
  });

  it("409 for a bet that is not active", async () => {
    const a = await signUp(server.url);
    const bet = await a.client.post("/api/bets", {
      title: "Solo bet",
      description: "Nobody has joined yet.",
      amount: 5,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      visibility: "public",
    });
    const res = await a.client.post(
      `/api/bets/${bet.data.id}/propose-settlement`,
      {
        winnerId: a.user.id,
      },
    );
    expect(res.status).toBe(409);
  });
});

describe("GET /api/settlements/{id}, approve and reject", () => {
  it("reads, approves once into {bet, settlement}, refuses the rest", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(server.url, 100);
    const stranger = await signUp(server.url);
    expect((await joiner.client.get(`/api/settlements/${betId}`)).status).toBe(
      404,
    );
    await joiner.client.post(`/api/bets/${betId}/propose-settlement`, {
      winnerId: joiner.user.id,
    });
    const read = await creator.client.get(`/api/settlements/${betId}`);
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({ id: betId, proposedBy: joiner.user.id });
    expect(
      (await new Client(server.url).get(`/api/settlements/${betId}`)).status,
    ).toBe(401);
    expect((await creator.client.get(`/api/settlements/999999`)).status).toBe(
      404,
    );

    const approve = `/api/settlements/${betId}/approve`;
    expect((await new Client(server.url).post(approve)).status).toBe(401);
    const third = await stranger.client.post(approve);
    expect(third.status).toBe(403);
    const own = await joiner.client.post(approve);
    expect(own.status).toBe(409);
    expect(own.data.error).toBe("You have already approved this settlement.");

    const ok = await creator.client.post(approve);
    expect(ok.status).toBe(200);
    expect(ok.data.bet).toMatchObject({
      id: betId,
      status: "settled",
      winnerId: joiner.user.id,
    });
    expect(ok.data.settlement).toMatchObject({
      creatorApproved: true,
      participantApproved: true,
      feeAmount: 2.5,
      netAmount: 97.5,
      paymentStatus: "pending",
    });
    expect(typeof ok.data.settlement.settledAt).toBe("string");
    const again = await creator.client.post(approve);
    expect(again.status).toBe(409);
    const me = await joiner.client.get("/api/user");
    expect(me.data).toMatchObject({ winCount: 1, lossCount: 0 });
    const reject = await creator.client.post(
      `/api/settlements/${betId}/reject`,
      {},
    );
    expect(reject.status).toBe(409);
  });

  it("either party may reject (204); a new proposal may follow", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(server.url);
    const stranger = await signUp(server.url);
    const reject = `/api/settlements/${betId}/reject`;
    expect((await creator.client.post(reject, {})).status).toBe(404);
    await creator.client.post(`/api/bets/${betId}/propose-settlement`, {
      winnerId: creator.user.id,
    });
    expect((await stranger.client.post(reject, {})).status).toBe(403);
    expect((await new Client(server.url).post(reject, {})).status).toBe(401);
    const long = await joiner.client.post(reject, {
      rejectionReason: "y".repeat(501),
    });
    expect(long.status).toBe(400);
    expect(long.data.fieldErrors.rejectionReason).toEqual([
      "Reason must be at most 500 characters.",
    ]);
    const res = await joiner.client.post(reject, {
      rejectionReason: " It rained ",
    });
    expect(res.status).toBe(204);
    expect((await joiner.client.get(`/api/settlements/${betId}`)).status).toBe(
      404,
    );
    // The proposer withdrawing.
    await joiner.client.post(`/api/bets/${betId}/propose-settlement`, {
      winnerId: creator.user.id,
    });
    expect((await joiner.client.post(reject, {})).status).toBe(204);
    const next = await creator.client.post(
      `/api/bets/${betId}/propose-settlement`,
      {
        winnerId: joiner.user.id,
      },
    );
    expect(next.status).toBe(201);
    const activity = await joiner.client.get("/api/activity");
    if (activity.status === 200)
      expect(JSON.stringify(activity.data)).toContain("settlement");
  });
});

describe("POST /api/bets/{id}/settle", () => {
  it("a concession settles at once (200); naming yourself proposes (201)", async () => {
    const one = await activeBetOverHttp(server.url, 40);
    const notCreator = await one.joiner.client.post(
      `/api/bets/${one.betId}/settle`,
      {
        winnerId: one.joiner.user.id,
      },
    );
    expect(notCreator.status).toBe(403);
    expect(notCreator.data.error).toBe(
      "Only the bet creator can settle this bet",
    );
    const noWinner = await one.creator.client.post(
      `/api/bets/${one.betId}/settle`,
      {},
    );
    expect(noWinner.status).toBe(400);
    expect(noWinner.data.error).toBe(NO_WINNER);
    expect(
      (
        await new Client(server.url).post(`/api/bets/${one.betId}/settle`, {
          winnerId: 1,
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await one.creator.client.post(`/api/bets/999999/settle`, {
          winnerId: 1,
        })
      ).status,
    ).toBe(404);
    const conceded = await one.creator.client.post(
      `/api/bets/${one.betId}/settle`,
      {
        winnerId: one.joiner.user.id,
      },
    );
    expect(conceded.status).toBe(200);
    expect(conceded.data.bet.status).toBe("settled");
    expect(conceded.data.settlement).toMatchObject({
      winnerId: one.joiner.user.id,
      loserId: one.creator.user.id,
      feeAmount: 1,
      netAmount: 39,
    });
    const twice = await one.creator.client.post(
      `/api/bets/${one.betId}/settle`,
      {
        winnerId: one.joiner.user.id,
      },
    );
    expect(twice.status).toBe(409);

    const two = await activeBetOverHttp(server.url);
    const proposed = await two.creator.client.post(
      `/api/bets/${two.betId}/settle`,
      {
        winnerId: two.creator.user.id,
      },
    );
    expect(proposed.status).toBe(201);
    expect(proposed.data).toMatchObject({
      creatorApproved: true,
      participantApproved: false,
    });
    const live = await two.creator.client.post(
      `/api/bets/${two.betId}/settle`,
      {
        winnerId: two.joiner.user.id,
      },
    );
    expect(live.status).toBe(409);
    expect((await two.creator.client.get(`/api/user`)).data.winCount).toBe(0);
  });
});
