// A currency per bet over /api (docs/api.md#bets, docs/product-rules.md#currencies):
// the bet's currency, the person's default, refusals that name the currency,
// fees and the ledger in the bet's currency, and summaries kept apart.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp, uniqueName } from "../support/server";
import { payOverHttp } from "./settle-helpers";

const server = useServer();

const body = (over: Record<string, unknown> = {}) => ({
  title: "Who wins the derby",
  description: "Home team wins the derby on Sunday.",
  amount: 25,
  deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  visibility: "public",
  ...over,
});

/** A bet in `currency`, joined, settled for the joiner: the creator owes. */
async function settledIn(currency: string, amount: number) {
  const a = await signUp(server.url);
  const b = await signUp(server.url);
  const made = await a.client.post("/api/bets", body({ amount, currency }));
  expect(made.status, made.text).toBe(201);
  const betId = made.data.id as number;
  expect((await b.client.post(`/api/bets/${betId}/join`, {})).status).toBe(200);
  const p = await b.client.post(`/api/bets/${betId}/propose-settlement`, {
    winnerId: b.user.id,
  });
  expect(p.status, p.text).toBe(201);
  const ok = await a.client.post(`/api/settlements/${betId}/approve`);
  expect(ok.status, ok.text).toBe(200);
  return { betId, loser: a, winner: b, approved: ok.data };
}

describe("POST /api/bets with a currency", () => {
  it("is USD when none is sent, as before; the bet names its currency", async () => {
    const { client } = await signUp(server.url);
    const res = await client.post("/api/bets", body());
    expect(res.status, res.text).toBe(201);
    expect(res.data).toMatchObject({ amount: 25, currency: "USD" });
  });

  it("keeps a JPY bet in whole yen and a EUR bet in euros", async () => {
    const { client } = await signUp(server.url);
    const yen = await client.post(
      "/api/bets",
      body({ amount: 1001, currency: "JPY" }),
    );
    expect(yen.status, yen.text).toBe(201);
    expect(yen.data).toMatchObject({ amount: 1001, currency: "JPY" });
    const read = await client.get(`/api/bets/${yen.data.id}`);
    expect(read.data).toMatchObject({ amount: 1001, currency: "JPY" });
    const eur = await client.post(
      "/api/bets",
      body({ amount: 10, currency: "EUR" }),
    );
    expect(eur.data).toMatchObject({ amount: 10, currency: "EUR" });
  });

  it.each([
    [{ currency: "XYZ" }, "Unknown currency"],
    [{ currency: "eur" }, "Unknown currency"],
    [{ currency: 978 }, "Unknown currency"],
  ])("refuses %j with 400 'Unknown currency'", async (over, error) => {
    const { client } = await signUp(server.url);
    const res = await client.post("/api/bets", body(over));
    expect(res.status).toBe(400);
    expect(res.data.error).toBe(error);
  });

  it.each([
    ["JPY", 1_500_001, "Amount can be at most ¥1,500,000."],
    ["JPY", 99, "Amount must be at least ¥100."],
    ["GBP", 8001, "Amount can be at most £8,000."],
    ["USD", 10_001, "Amount can be at most $10,000."],
    ["MXN", 19, "Amount must be at least MX$20."],
    ["EUR", 12.5, "Amount must be a whole number of euros."],
  ])(
    "refuses %s %d with a message naming the currency",
    async (currency, amount, message) => {
      const { client } = await signUp(server.url);
      const res = await client.post("/api/bets", body({ currency, amount }));
      expect(res.status).toBe(400);
      expect(res.data.fieldErrors.amount).toEqual([message]);
    },
  );

  it("takes the person's currency when none is sent; a bet keeps its own at edit", async () => {
    const { client } = await signUp(server.url);
    const me = await client.get("/api/user");
    expect(me.data.currency).toBe("USD");
    const set = await client.patch("/api/user/profile", { currency: "JPY" });
    expect(set.status, set.text).toBe(200);
    expect(set.data.currency).toBe("JPY");
    expect((await client.get("/api/user")).data.currency).toBe("JPY");
    const bad = await client.patch("/api/user/profile", { currency: "ZZZ" });
    expect(bad.status).toBe(400);
    expect(bad.data.fieldErrors.currency).toEqual(["Unknown currency"]);

    const made = await client.post("/api/bets", body({ amount: 5000 }));
    expect(made.data).toMatchObject({ amount: 5000, currency: "JPY" });
    // Edited without a currency: still yen, and yen's limits apply.
    const low = await client.put(
      `/api/bets/${made.data.id}`,
      body({ amount: 50 }),
    );
    expect(low.status).toBe(400);
    expect(low.data.fieldErrors.amount).toEqual([
      "Amount must be at least ¥100.",
    ]);
    const edited = await client.put(
      `/api/bets/${made.data.id}`,
      body({ amount: 2000 }),
    );
    expect(edited.status, edited.text).toBe(200);
    expect(edited.data).toMatchObject({ amount: 2000, currency: "JPY" });
    // Nobody joined yet: the currency may still change.
    const eur = await client.put(
      `/api/bets/${made.data.id}`,
      body({ amount: 20, currency: "EUR" }),
    );
    expect(eur.data).toMatchObject({ amount: 20, currency: "EUR" });
  });

  it("the profile page's form sets the currency without JavaScript", async () => {
    const { client } = await signUp(server.url);
    const me = (await client.get("/api/user")).data;
    const post = (currency: string) =>
      client.request("POST", "/profile/edit", {
        body: new URLSearchParams({
          username: me.username,
          email: me.email,
          avatarUrl: "",
          currency,
        }).toString(),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "text/html",
        },
      });
    const page = await client.get("/profile/edit", { Accept: "text/html" });
    expect(page.text).toContain('name="currency"');
    const ok = await post("EUR");
    expect([302, 303]).toContain(ok.status);
    expect((await client.get("/api/user")).data.currency).toBe("EUR");
    const bad = await post("XYZ");
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Unknown currency");
    expect((await client.get("/api/user")).data.currency).toBe("EUR");
  });

  it("guesses a new person's currency from their browser's languages", async () => {
    for (const [header, currency] of [
      ["de-DE,de;q=0.9,en;q=0.5", "EUR"],
      ["es-MX", "MXN"],
      ["pt-BR", "BRL"],
      ["en-GB", "GBP"],
      ["en-US", "USD"],
    ]) {
      const client = new Client(server.url);
      const name = uniqueName();
      const res = await client.request("POST", "/api/register", {
        json: {
          username: name,
          email: `${name}@example.com`,
          password: "secret123",
        },
        headers: { "Accept-Language": header! },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.data.currency).toBe(currency);
    }
  });
});

describe("paying in the bet's currency", () => {
  it("a JPY bet of ¥1,001: fee ¥25, payout ¥976, whole yen everywhere", async () => {
    const { betId, loser, winner, approved } = await settledIn("JPY", 1001);
    expect(approved.settlement).toMatchObject({
      feeAmount: 25,
      netAmount: 976,
    });
    const s = await loser.client.get(`/api/settlements/${betId}`);
    expect(s.data).toMatchObject({ feeAmount: 25, netAmount: 976 });

    const intent = await loser.client.post("/api/create-payment-intent", {
      betId,
    });
    expect(intent.data).toMatchObject({ amount: 1001, currency: "JPY" });
    await payOverHttp(loser.client, betId);

    const w = await winner.client.get("/api/financial-history");
    expect(
      w.data.transactions
        .map((t: any) => [t.type, t.amount, t.currency])
        .sort(),
    ).toEqual([
      ["fee", "-25", "JPY"],
      ["payout", "1001", "JPY"],
    ]);
    // The person's default (USD) summary holds none of it; `summaries` does.
    expect(w.data.summary).toMatchObject({ winnings: 0, netProfit: 0 });
    expect(w.data.summaries).toEqual([
      {
        currency: "JPY",
        winnings: 1001,
        losses: 0,
        fees: 25,
        netProfit: 976,
        winsCount: 1,
        lossesCount: 0,
        winRate: 100,
      },
    ]);
    const csv = await winner.client.get("/api/financial-history.csv");
    expect(csv.text).toContain(",1001,JPY,completed");
    expect(csv.text).toContain(",'-25,JPY,completed");
  });

  it("keeps euros and dollars apart: one summary per currency, never a sum", async () => {
    const eur = await settledIn("EUR", 15);
    await payOverHttp(eur.loser.client, eur.betId);
    // The same winner wins a dollar bet too.
    const made = await eur.loser.client.post("/api/bets", body({ amount: 10 }));
    const betId = made.data.id as number;
    await eur.winner.client.post(`/api/bets/${betId}/join`, {});
    await eur.winner.client.post(`/api/bets/${betId}/propose-settlement`, {
      winnerId: eur.winner.user.id,
    });
    await eur.loser.client.post(`/api/settlements/${betId}/approve`);
    await payOverHttp(eur.loser.client, betId);

    const w = await eur.winner.client.get("/api/financial-history");
    expect(
      w.data.summaries.map((s: any) => [
        s.currency,
        s.winnings,
        s.fees,
        s.netProfit,
      ]),
    ).toEqual([
      ["USD", 10, 0.25, 9.75],
      ["EUR", 15, 0.38, 14.62],
    ]);
    expect(w.data.summary).toMatchObject({ winnings: 10, netProfit: 9.75 });
    const eurTx = w.data.transactions.filter((t: any) => t.currency === "EUR");
    expect(eurTx.map((t: any) => t.amount).sort()).toEqual(["-0.38", "15.00"]);
  });
});
