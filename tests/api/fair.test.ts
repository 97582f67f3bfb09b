// docs/api.md over HTTP, with the windows shortened through the environment:
// answer windows, calling it off, the referee, getting paid, the payment
// record, and a participant's own private share preview.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import { activeBetOverHttp, settledBetOverHttp } from "./settle-helpers";

const server = useServer({
  RESPONSE_WINDOW_S: "3",
  PAYMENT_DUE_S: "3",
  NUDGE_INTERVAL_S: "3600",
  SWEEP_INTERVAL_S: "1",
});

type Person = Awaited<ReturnType<typeof signUp>>;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean) {
  const end = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function befriend(a: Person, b: Person) {
  expect(
    (await a.client.post("/api/friends", { friendId: b.user.id })).status,
  ).toBe(201);
  expect(
    (await b.client.post("/api/friends/accept", { friendId: a.user.id }))
      .status,
  ).toBe(200);
}

const betBody = (extra: Record<string, unknown> = {}) => ({
  title: "Refereed derby",
  description: "Home team wins the derby on Sunday.",
  amount: 40,
  deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  visibility: "public",
  ...extra,
});

describe("answer window (docs/product-rules.md#answer-windows)", () => {
  it("a proposal shows respondBy and its fee; silence approves it through the sweep", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(server.url, 100);
    const p = await joiner.client.post(
      `/api/bets/${betId}/propose-settlement`,
      {
        winnerId: joiner.user.id,
      },
    );
    expect(p.status).toBe(201);
    expect(p.data).toMatchObject({
      outcome: "winner",
      resolution: null,
      feeAmount: 2.5,
      netAmount: 97.5,
    });
    const window = Date.parse(p.data.respondBy) - Date.parse(p.data.proposedAt);
    expect(window).toBe(3000);
    const settled = await until(
      () => creator.client.get(`/api/settlements/${betId}`),
      (r) => r.data?.resolution === "timeout",
    );
    expect(settled.data).toMatchObject({
      resolution: "timeout",
      settledAt: expect.any(String),
      creatorApproved: true,
    });
    const bet = await creator.client.get(`/api/bets/${betId}`);
    expect(bet.data).toMatchObject({
      status: "settled",
      winnerId: joiner.user.id,
    });
    expect(bet.data.paymentDueAt).toEqual(expect.any(String));
    const activity = await creator.client.get("/api/activity");
    expect(activity.data.map((e: any) => e.type)).toContain("bet_settled");
    // An approval arriving after the timeout is a conflict, never a 500.
    expect(
      (await creator.client.post(`/api/settlements/${betId}/approve`)).status,
    ).toBe(409);
  });
});

describe("calling it off (docs/product-rules.md#void)", () => {
  it("400 with a winner too; 201 void; approved, the bet is cancelled with voidedAt", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(server.url);
    const path = `/api/bets/${betId}/propose-settlement`;
    const both = await creator.client.post(path, {
      outcome: "void",
      winnerId: creator.user.id,
    });
    expect(both.status).toBe(400);
    expect(both.data.error).toBe(
      "A proposal to call the bet off cannot name a winner.",
    );
    expect((await creator.client.post(path, { outcome: "draw" })).status).toBe(
      400,
    );
    const p = await creator.client.post(path, { outcome: "void" });
    expect(p.status).toBe(201);
    expect(p.data).toMatchObject({
      outcome: "void",
      winnerId: null,
      feeAmount: null,
    });
    const a = await joiner.client.post(`/api/settlements/${betId}/approve`);
    expect(a.status).toBe(200);
    expect(a.data.bet).toMatchObject({ status: "cancelled", winnerId: null });
    expect(a.data.bet.voidedAt).toEqual(expect.any(String));
    expect(a.data.settlement).toMatchObject({
      resolution: "agreed",
      outcome: "void",
    });
    const me = await creator.client.get("/api/user");
    expect(me.data).toMatchObject({ winCount: 0, lossCount: 0 });
    const pay = await creator.client.post("/api/create-payment-intent", {
      betId,
    });
    expect(pay.status).toBe(409);
  });

  it("the direct settle takes void as a proposal (201)", async () => {
    const { betId, creator } = await activeBetOverHttp(server.url);
    const res = await creator.client.post(`/api/bets/${betId}/settle`, {
      outcome: "void",
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ outcome: "void", creatorApproved: true });
  });
});

describe("the referee (docs/product-rules.md#referee)", () => {
  it("create and edit take a friend as refereeId; 400 a stranger or yourself", async () => {
    const creator = await signUp(server.url);
    const friend = await signUp(server.url);
    const stranger = await signUp(server.url);
    await befriend(creator, friend);
    const refused = await creator.client.post(
      "/api/bets",
      betBody({ refereeId: stranger.user.id }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data).toEqual({
      error: "The referee must be one of your friends.",
      fieldErrors: { refereeId: ["The referee must be one of your friends."] },
    });
    expect(
      (
        await creator.client.post(
          "/api/bets",
          betBody({ refereeId: creator.user.id }),
        )
      ).status,
    ).toBe(400);
    const made = await creator.client.post(
      "/api/bets",
      betBody({ refereeId: friend.user.id }),
    );
    expect(made.status).toBe(201);
    expect(made.data.refereeId).toBe(friend.user.id);
    const cleared = await creator.client.put(
      `/api/bets/${made.data.id}`,
      betBody({ refereeId: null }),
    );
    expect(cleared.status).toBe(200);
    expect(cleared.data.refereeId).toBeNull();
  });

  it("refer and rule: success and every refusal in docs/api.md", async () => {
    const creator = await signUp(server.url);
    const joiner = await signUp(server.url);
    const referee = await signUp(server.url);
    const stranger = await signUp(server.url);
    await befriend(creator, referee);
    const made = await creator.client.post(
      "/api/bets",
      betBody({ refereeId: referee.user.id, visibility: "private" }),
    );
    const id = made.data.id as number;
    // The referee reads the private bet, and cannot join it.
    expect((await referee.client.get(`/api/bets/${id}`)).status).toBe(200);
    const join = await referee.client.post(`/api/bets/${id}/join`, {});
    expect(join.status).toBe(409);
    expect(join.data.error).toBe("The referee cannot join this bet.");
    await joiner.client.get(`/api/bets/code/${made.data.code}`);
    expect((await joiner.client.post(`/api/bets/${id}/join`, {})).status).toBe(
      200,
    );

    const refer = `/api/bets/${id}/refer`;
    const rule = `/api/bets/${id}/rule`;
    expect((await new Client(server.url).post(refer)).status).toBe(401);
    expect(
      (await new Client(server.url).post(rule, { outcome: "void" })).status,
    ).toBe(401);
    expect((await creator.client.post(refer)).status).toBe(409); // nothing rejected
    expect((await referee.client.post(rule, { outcome: "void" })).status).toBe(
      409,
    ); // not referred
    await creator.client.post(`/api/bets/${id}/propose-settlement`, {
      winnerId: creator.user.id,
    });
    expect((await creator.client.post(refer)).status).toBe(409); // a proposal is live
    expect(
      (await referee.client.post(`/api/settlements/${id}/approve`)).status,
    ).toBe(403);
    expect(
      (await joiner.client.post(`/api/settlements/${id}/reject`, {})).status,
    ).toBe(204);
    expect((await referee.client.post(refer)).status).toBe(403); // not a party
    expect((await stranger.client.post(refer)).status).toBe(404); // private
    const referred = await joiner.client.post(refer);
    expect(referred.status).toBe(200);
    expect(referred.data.dispute).toMatchObject({ referredBy: joiner.user.id });
    expect((await creator.client.post(refer)).status).toBe(409); // twice
    const requested = await referee.client.get("/api/activity");
    expect(requested.data[0]).toMatchObject({
      type: "referee_requested",
      betId: id,
    });

    expect(
      (await creator.client.post(rule, { winnerId: creator.user.id })).status,
    ).toBe(403);
    expect(
      (await referee.client.post(rule, { winnerId: referee.user.id })).status,
    ).toBe(400);
    expect(
      (
        await referee.client.post(rule, {
          outcome: "void",
          winnerId: joiner.user.id,
        })
      ).status,
    ).toBe(400);
    const ruled = await referee.client.post(rule, { winnerId: joiner.user.id });
    expect(ruled.status).toBe(200);
    expect(ruled.data.bet).toMatchObject({
      status: "settled",
      winnerId: joiner.user.id,
      dispute: null,
    });
    expect(ruled.data.settlement).toMatchObject({
      resolution: "referee",
      loserId: creator.user.id,
    });
    expect((await referee.client.post(rule, { outcome: "void" })).status).toBe(
      409,
    );
    const told = await creator.client.get("/api/activity");
    expect(told.data[0]).toMatchObject({ type: "referee_ruled" });
  });
});

describe("getting paid (docs/product-rules.md#getting-paid)", () => {
  it("nudge: 204 for the winner, 429 too soon, 403 the loser, 409 not owed, 401", async () => {
    const { betId, winner, loser } = await settledBetOverHttp(server.url, 20);
    const path = `/api/bets/${betId}/nudge`;
    expect((await new Client(server.url).post(path)).status).toBe(401);
    expect((await loser.client.post(path)).status).toBe(403);
    const first = await winner.client.post(path);
    expect(first.status).toBe(204);
    const again = await winner.client.post(path);
    expect(again.status).toBe(429);
    expect(again.data.error).toBe("You can nudge again in 1 hour.");
    expect(Number(again.headers.get("Retry-After"))).toBeGreaterThan(3500);
    const activity = await loser.client.get("/api/activity");
    expect(activity.data[0]).toMatchObject({ type: "payment_nudge", betId });
    const { betId: open, creator } = await activeBetOverHttp(server.url);
    expect((await creator.client.post(`/api/bets/${open}/nudge`)).status).toBe(
      409,
    );
  });

  it("the loser is reminded and told when overdue; the payment record shows it", async () => {
    const { betId, winner, loser } = await settledBetOverHttp(server.url, 20);
    const activity = await until(
      () => loser.client.get("/api/activity"),
      (r) => r.data.some((e: any) => e.type === "payment_overdue"),
    );
    const types = activity.data
      .filter((e: any) => e.betId === betId)
      .map((e: any) => e.type);
    expect(types.filter((t: string) => t === "payment_due")).toHaveLength(1);
    expect(types.filter((t: string) => t === "payment_overdue")).toHaveLength(
      1,
    );
    const record = await winner.client.get(`/api/users/${loser.user.id}`);
    expect(record.data.paymentRecord).toEqual({
      owed: 1,
      paid: 0,
      paidOnTime: 0,
      overdue: 1,
    });
    const search = await winner.client.get(
      `/api/users/search?q=${encodeURIComponent(loser.user.username)}`,
    );
    expect(search.data[0].paymentRecord).toMatchObject({ owed: 1 });
  });
});

describe("share preview of my own private bet (docs/product-rules.md#private-bets)", () => {
  it("a participant reads share-meta and share-image by id without ?code=; others get 404", async () => {
    const creator = await signUp(server.url);
    const stranger = await signUp(server.url);
    const made = await creator.client.post(
      "/api/bets",
      betBody({ visibility: "private" }),
    );
    const id = made.data.id;
    const meta = await creator.client.get(`/api/bets/${id}/share-meta`);
    expect(meta.status).toBe(200);
    expect(meta.data.code).toBe(made.data.code);
    expect(
      (await creator.client.get(`/api/bets/${id}/share-image`)).status,
    ).toBe(200);
    expect(
      (await stranger.client.get(`/api/bets/${id}/share-meta`)).status,
    ).toBe(404);
    expect(
      (await new Client(server.url).get(`/api/bets/${id}/share-image`)).status,
    ).toBe(404);
  });
});
