import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import {
  GOOD_CARD,
  activeBetOverHttp,
  payOverHttp,
  settledBetOverHttp,
} from "./settle-helpers";

const server = useServer();

describe("create intent, confirm (demo), record payment", () => {
  it("the loser pays once; the same intent again has no new effect", async () => {
    const { betId, winner, loser } = await settledBetOverHttp(server.url, 100);
    const stranger = await signUp(server.url);

    expect(
      (
        await new Client(server.url).post("/api/create-payment-intent", {
          betId,
        })
      ).status,
    ).toBe(401);
    const bad = await loser.client.post("/api/create-payment-intent", {});
    expect(bad.status).toBe(400);
    expect(bad.data.fieldErrors.betId).toBeTruthy();
    expect(
      (await winner.client.post("/api/create-payment-intent", { betId }))
        .status,
    ).toBe(403);
    expect(
      (await stranger.client.post("/api/create-payment-intent", { betId }))
        .status,
    ).toBe(403);
    expect(
      (await loser.client.post("/api/create-payment-intent", { betId: 999999 }))
        .status,
    ).toBe(404);

    const created = await loser.client.post("/api/create-payment-intent", {
      betId,
    });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ amount: 100 });
    const intentId = created.data.paymentIntentId as string;
    expect(typeof created.data.clientSecret).toBe("string");

    const record = `/api/bets/${betId}/record-payment`;
    // Not confirmed yet: the client's word is not enough.
    const early = await loser.client.post(record, {
      paymentIntentId: intentId,
      amount: 100,
    });
    expect(early.status).toBe(409);

    const confirm = "/api/payments/demo/confirm";
    expect(
      (
        await new Client(server.url).post(confirm, {
          paymentIntentId: intentId,
          ...GOOD_CARD,
        })
      ).status,
    ).toBe(401);
    const invalid = await loser.client.post(confirm, {
      paymentIntentId: intentId,
      cardNumber: "5555 5555 5555 4444",
      expiry: "01/20",
      cvc: "1",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.data.fieldErrors).toEqual({
      cardNumber: [
        "Demo mode accepts test cards only: use 4242 4242 4242 4242.",
      ],
      expiry: ["Expiry must be in the future."],
      cvc: ["CVC must be 3 or 4 digits."],
    });
    const declined = await loser.client.post(confirm, {
      paymentIntentId: intentId,
      ...GOOD_CARD,
      cardNumber: "4000 0000 0000 0002",
    });
    expect(declined.status).toBe(402);
    expect(declined.data.error).toBe("Your card was declined.");
    expect(
      (
        await winner.client.post(confirm, {
          paymentIntentId: intentId,
          ...GOOD_CARD,
        })
      ).status,
    ).toBe(404);
    const ok = await loser.client.post(confirm, {
      paymentIntentId: intentId,
      ...GOOD_CARD,
    });
    expect(ok.status).toBe(200);
    expect(ok.data).toEqual({ status: "succeeded" });

    expect(
      (await new Client(server.url).post(record, { paymentIntentId: intentId }))
        .status,
    ).toBe(401);
    expect((await loser.client.post(record, {})).status).toBe(400);
    expect(
      (
        await winner.client.post(record, {
          paymentIntentId: intentId,
          amount: 100,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await stranger.client.post(record, {
          paymentIntentId: intentId,
          amount: 100,
        })
      ).status,
    ).toBe(403);
    const wrongAmount = await loser.client.post(record, {
      paymentIntentId: intentId,
      amount: 50,
    });
    expect(wrongAmount.status).toBe(409);
    const unknown = await loser.client.post(record, {
      paymentIntentId: "demo_pi_nope",
      amount: 100,
    });
    expect(unknown.status).toBe(409);

    const paid = await loser.client.post(record, {
      paymentIntentId: intentId,
      amount: 100,
    });
    expect(paid.status).toBe(200);
    expect(paid.data.settlement).toMatchObject({ paymentStatus: "completed" });
    const again = await loser.client.post(record, {
      paymentIntentId: intentId,
      amount: 100,
    });
    expect(again.status).toBe(200);

    const twice = await loser.client.post("/api/create-payment-intent", {
      betId,
    });
    expect(twice.status).toBe(409);
    expect(twice.data.error).toBe("This bet has already been paid.");

    // The ledger, from each side.
    const w = await winner.client.get("/api/financial-history");
    expect(w.status).toBe(200);
    expect(
      w.data.transactions.map((t: any) => [t.type, t.amount, t.status]).sort(),
    ).toEqual([
      ["fee", "-2.50", "completed"],
      ["payout", "100.00", "completed"],
    ]);
    expect(w.data.summary).toEqual({
      winnings: 100,
      losses: 0,
      fees: 2.5,
      netProfit: 97.5,
      winsCount: 1,
      lossesCount: 0,
      winRate: 100,
    });
    const sum = w.data.transactions.reduce(
      (s: number, t: any) => s + Number(t.amount),
      0,
    );
    expect(sum).toBeCloseTo(w.data.summary.netProfit, 2);
    const l = await loser.client.get("/api/financial-history");
    expect(l.data.transactions).toHaveLength(1);
    expect(l.data.transactions[0]).toMatchObject({
      type: "payment",
      amount: "-100.00",
    });
    expect(l.data.summary).toMatchObject({
      losses: 100,
      netProfit: -100,
      lossesCount: 1,
      winRate: 0,
    });
    expect(Object.keys(l.data.transactions[0]).sort()).toEqual([
      "amount",
      "createdAt",
      "currency",
      "description",
      "id",
      "status",
      "type",
    ]);
  });

  it("409 for an unsettled bet", async () => {
    const { betId, creator } = await activeBetOverHttp(server.url);
    const res = await creator.client.post("/api/create-payment-intent", {
      betId,
    });
    expect(res.status).toBe(409);
    expect(res.data.error).toBe("This bet has not been settled yet.");
    const rec = await creator.client.post(`/api/bets/${betId}/record-payment`, {
      paymentIntentId: "demo_pi_x",
    });
    expect(rec.status).toBe(409);
  });
});

describe("GET /api/financial-history and .csv", () => {
  it("validates the range and exports CSV with escaped cells", async () => {
    const { betId, loser } = await settledBetOverHttp(server.url, 10);
    await payOverHttp(loser.client, betId);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await new Client(server.url).get("/api/financial-history")).status,
    ).toBe(401);
    const future = await loser.client.get(
      `/api/financial-history?startDate=${today}&endDate=2999-01-01`,
    );
    expect(future.status).toBe(400);
    expect(future.data.error).toBe("Dates cannot be in the future.");
    const reversed = await loser.client.get(
      `/api/financial-history?startDate=${today}&endDate=2020-01-01`,
    );
    expect(reversed.status).toBe(400);
    expect(reversed.data.error).toBe("Start date cannot be after end date.");
    expect(
      (await loser.client.get("/api/financial-history?startDate=nope")).status,
    ).toBe(400);
    const iso = await loser.client.get(
      `/api/financial-history?startDate=2020-01-01T00:00:00.000Z&endDate=${new Date().toISOString()}`,
    );
    expect(iso.status).toBe(200);
    expect(iso.data.dateRange.start).toBe("2020-01-01T00:00:00.000Z");
    const dflt = await loser.client.get("/api/financial-history");
    expect(dflt.data.dateRange.start.slice(0, 8)).toBe(`${today.slice(0, 7)}-`);

    const csv = await loser.client.get(
      `/api/financial-history.csv?startDate=2020-01-01&endDate=${today}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.text.split("\r\n")[0]).toBe(
      "Date,Type,Description,Amount,Currency,Status",
    );
    expect(csv.text).toContain(",payment,");
    expect(csv.text).toContain(",'-10.00,USD,completed");
    expect(
      (
        await loser.client.get(
          `/api/financial-history.csv?startDate=${today}&endDate=2020-01-01`,
        )
      ).status,
    ).toBe(400);
  });
});

describe("Stripe webhook path", () => {
  it("is exempt from the JSON/cross-site checks but 404s without Stripe configured", async () => {
    const res = await new Client(server.url).request(
      "POST",
      "/api/stripe/webhook",
      {
        body: "{}",
        headers: {
          "Content-Type": "text/plain",
          Origin: "https://evil.example",
        },
      },
    );
    expect(res.status).toBe(404);
  });
});

describe("demo seed (docs/product-rules.md#bets)", () => {
  it("bet #3 is settled: bob won, alice owes, payment pending", async () => {
    const alice = new Client(server.url);
    const login = await alice.post("/api/login", {
      username: "alice",
      password: "password123",
    });
    expect(login.status).toBe(200);
    const s = await alice.get("/api/settlements/3");
    expect(s.status).toBe(200);
    const bob = (await alice.get(`/api/users/${s.data.winnerId}`)).data;
    expect(bob.username).toBe("bob");
    expect(s.data).toMatchObject({
      loserId: login.data.id,
      paymentStatus: "pending",
      creatorApproved: true,
      participantApproved: true,
    });
    const bet = await alice.get("/api/bets/3");
    expect(bet.data).toMatchObject({ status: "settled", winnerId: bob.id });
  });
});
