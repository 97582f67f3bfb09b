// Two app servers on one database (docs/product-rules.md#more-than-one-machine):
// on the SQLite half of the matrix two processes on one file, on the
// PostgreSQL half two "machines" on one server. Whichever one a person's
// request lands on, a session holds, a seat goes to one joiner, a bet is
// paid once and the ledger sums to zero; answer windows that run out while
// both sweep settle once and tell each side once; and when one server is
// killed mid-payment, the other finishes the work.
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client, signUp } from "../support/server";
import { ledgerBalance, queryServerDatabase } from "../support/server-database";
import {
  GOOD_CARD,
  activeBetOverHttp,
  settledBetOverHttp,
} from "./settle-helpers";

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

describe("two servers sweeping one database", () => {
  // Answer windows of seconds, a sweep every second on each server
  // (docs/operations.md#environment): both reach for the same due timeouts.
  const env = { RESPONSE_WINDOW_S: "2", SWEEP_INTERVAL_S: "1" };
  const one = useServer(env);
  const other = useServer(() => ({ ...env, ...one.databaseEnv }));

  it("answer windows running out while both sweep: one settlement per bet, one notice each side", async () => {
    const bets = await Promise.all(
      Array.from({ length: 6 }, () => activeBetOverHttp(one.url, 20)),
    );
    for (const [i, { betId, joiner }] of bets.entries()) {
      const propose = (
        i % 2 ? onOther(joiner.client, other.url) : joiner.client
      ).post(`/api/bets/${betId}/propose-settlement`, {
        winnerId: joiner.user.id,
      });
      expect((await propose).status).toBe(201);
    }
    for (const { betId, creator } of bets) {
      const started = Date.now();
      let settled = await creator.client.get(`/api/settlements/${betId}`);
      while (!settled.data?.settledAt && Date.now() - started < 20_000) {
        await new Promise((r) => setTimeout(r, 250));
        settled = await creator.client.get(`/api/settlements/${betId}`);
      }
      expect(settled.data).toMatchObject({ resolution: "timeout" });
    }
    // A further sweep on each finds nothing left to do.
    await new Promise((r) => setTimeout(r, 2_500));

    const ids = bets.map((b) => b.betId);
    const perBet = await queryServerDatabase<{ bet_id: number; n: number }>(
      one.databaseEnv,
      `SELECT bet_id, count(*) AS n FROM bet_events
        WHERE type = 'settlement_timed_out' AND bet_id IN (${ids.join(",")})
        GROUP BY bet_id`,
    );
    expect(perBet.map((r) => Number(r.n))).toEqual(ids.map(() => 1));
    const settlements = await queryServerDatabase<{ n: number }>(
      one.databaseEnv,
      `SELECT count(*) AS n FROM settlements WHERE bet_id IN (${ids.join(",")})`,
    );
    expect(Number(settlements[0]!.n)).toBe(ids.length);
    for (const { betId, creator, joiner } of bets)
      for (const side of [creator, joiner]) {
        const activity = await side.client.get("/api/activity");
        const told = activity.data.filter(
          (e: { type: string; betId: number | null }) =>
            e.type === "bet_settled" && e.betId === betId,
        );
        expect(told, `bet ${betId}`).toHaveLength(1);
      }
    const twice = await queryServerDatabase(
      one.databaseEnv,
      `SELECT event_id, channel FROM notification_deliveries
        GROUP BY event_id, channel HAVING count(*) > 1`,
    );
    expect(twice).toEqual([]);
  });
});

describe("one of two servers killed mid-payment", () => {
  const survivor = useServer();
  const doomed = useServer(() => ({ ...survivor.databaseEnv }));

  it("the other goes on: every bet is paid once and the ledger sums to zero", async () => {
    const bets = await Promise.all(
      Array.from({ length: 8 }, () => settledBetOverHttp(survivor.url, 30)),
    );
    const intents = await Promise.all(
      bets.map(async ({ betId, loser }) => {
        const intent = await loser.client.post("/api/create-payment-intent", {
          betId,
        });
        expect(intent.status, intent.text).toBe(200);
        return intent.data.paymentIntentId as string;
      }),
    );
    // The payments go through the doomed server one after another, a few
    // milliseconds apart; it is SIGKILLed as soon as the first is recorded,
    // with the rest on their way or not yet sent.
    let firstRecorded!: () => void;
    const recorded = new Promise<void>((resolve) => (firstRecorded = resolve));
    const inFlight = bets.map(async ({ betId, loser }, i) => {
      await new Promise((r) => setTimeout(r, i * 15));
      const there = onOther(loser.client, doomed.url);
      try {
        const confirm = await there.post("/api/payments/demo/confirm", {
          paymentIntentId: intents[i],
          ...GOOD_CARD,
        });
        if (confirm.status !== 200) return "cut off" as const;
        const record = await there.post(`/api/bets/${betId}/record-payment`, {
          paymentIntentId: intents[i],
          amount: 30,
        });
        if (record.status === 200) firstRecorded();
        return record.status === 200 ? ("paid" as const) : ("cut off" as const);
      } catch {
        return "cut off" as const;
      }
    });
    await Promise.race([recorded, Promise.all(inFlight)]);
    await doomed.kill();
    const outcomes = await Promise.all(inFlight);
    const cut = outcomes.filter((o) => o === "cut off").length;
    console.info(`${cut} of ${outcomes.length} payments cut off by the kill`);

    // The survivor answers, and finishes what the doomed server did not.
    expect((await fetch(`${survivor.url}/healthz`)).status).toBe(200);
    for (const [i, { betId, loser }] of bets.entries()) {
      const confirm = await loser.client.post("/api/payments/demo/confirm", {
        paymentIntentId: intents[i],
        ...GOOD_CARD,
      });
      expect([200, 409], confirm.text).toContain(confirm.status);
      const record = await loser.client.post(
        `/api/bets/${betId}/record-payment`,
        { paymentIntentId: intents[i], amount: 30 },
      );
      expect(record.status, record.text).toBe(200);
    }
    const ids = bets.map((b) => b.betId).join(",");
    const completed = await queryServerDatabase<{ bet_id: number; n: number }>(
      survivor.databaseEnv,
      `SELECT bet_id, count(*) AS n FROM payments
        WHERE status = 'completed' AND bet_id IN (${ids}) GROUP BY bet_id`,
    );
    expect(completed.map((r) => Number(r.n))).toEqual(bets.map(() => 1));
    const { total, unbalanced } = await ledgerBalance(survivor.databaseEnv);
    expect(total).toBe(0);
    expect(unbalanced).toEqual([]);
  });
});
