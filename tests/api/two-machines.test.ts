// Two app servers on one database (docs/product-rules.md#more-than-one-machine):
// on the SQLite half of the matrix two processes on one file, on the
// PostgreSQL half two "machines" on one server. Whichever one a person's
// request lands on, a session holds, a seat goes to one joiner, a bet is
// paid once and the ledger sums to zero.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import { GOOD_CARD, settledBetOverHttp } from "./settle-helpers";

const first = useServer();
// Started after the first, which migrates the database and seeds it.
const second = useServer(() => ({ ...first.databaseEnv }));

/** The same person's session, sent to the other server. */
function onOther(client: Client, baseUrl: string) {
  const other = new Client(baseUrl);
  const cookie = client.cookieHeader;
  return {
    get: (p: string) => other.get(p, { Cookie: cookie }),
    post: (p: string, json: unknown = {}) =>
      other.request("POST", p, { json, headers: { Cookie: cookie } }),
  };
}

describe("two servers, one database", () => {
  it("a session made on one is valid on the other, and a sign-out on one ends it on both", async () => {
    const alice = await signUp(first.url);
    const there = onOther(alice.client, second.url);
    const me = await there.get("/api/user");
    expect(me.status, me.text).toBe(200);
    expect(me.data.id).toBe(alice.user.id);
    expect((await alice.client.post("/api/logout")).status).toBeLessThan(300);
    expect((await there.get("/api/user")).status).toBe(401);
  });

  it("20 people joining one bet at once, split over both servers: one gets the seat", async () => {
    const creator = await signUp(first.url);
    const bet = await creator.client.post("/api/bets", {
      title: "One seat, two doors",
      description: "Exactly one joiner wins the seat.",
      amount: 10,
      deadline: new Date(Date.now() + 86_400_000).toISOString(),
      visibility: "public",
    });
    expect(bet.status, bet.text).toBe(201);
    const joiners = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signUp(i % 2 ? second.url : first.url),
      ),
    );
    const answers = await Promise.all(
      joiners.map((j) => j.client.post(`/api/bets/${bet.data.id}/join`, {})),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const seen = await onOther(creator.client, second.url).get(
      `/api/bets/${bet.data.id}`,
    );
    expect(seen.data.participantIds).toHaveLength(2);
    expect(seen.data.status).toBe("active");
  });

  it("the same payment recorded through both servers at once is one payment; the ledger sums to zero", async () => {
    const { betId, winner, loser } = await settledBetOverHttp(first.url, 40);
    const intent = await loser.client.post("/api/create-payment-intent", {
      betId,
    });
    expect(intent.status, intent.text).toBe(200);
    const paymentIntentId = intent.data.paymentIntentId as string;
    const ok = await onOther(loser.client, second.url).post(
      "/api/payments/demo/confirm",
      { paymentIntentId, ...GOOD_CARD },
    );
    expect(ok.status, ok.text).toBe(200);
    const record = `/api/bets/${betId}/record-payment`;
    const body = { paymentIntentId, amount: 40 };
    const answers = await Promise.all([
      loser.client.post(record, body),
      onOther(loser.client, second.url).post(record, body),
      loser.client.post(record, body),
      onOther(loser.client, second.url).post(record, body),
    ]);
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const w = await onOther(winner.client, second.url).get(
      "/api/financial-history",
    );
    const l = await loser.client.get("/api/financial-history");
    const rows = [...w.data.transactions, ...l.data.transactions].filter(
      (t: { betId?: number }) => t.betId === undefined || t.betId === betId,
    );
    expect(
      w.data.transactions.map((t: any) => [t.type, t.amount]).sort(),
    ).toEqual([
      ["fee", "-1.00"],
      ["payout", "40.00"],
    ]);
    expect(l.data.transactions.map((t: any) => [t.type, t.amount])).toEqual([
      ["payment", "-40.00"],
    ]);
    // Winner's +40 and −1, loser's −40, and the platform's +1 (not shown to either).
    const shown = rows.reduce((s: number, t: any) => s + Number(t.amount), 0);
    expect(shown).toBeCloseTo(-1, 2);
  });
});
