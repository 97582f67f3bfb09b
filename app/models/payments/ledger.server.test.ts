// The ledger (docs/product-rules.md#paying): immutable entries, history and summary, CSV, fees.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPayment } from "./payment.server";
import {
  csvCell,
  ledgerBalance,
  listTransactions,
  summariesByCurrency,
  summarize,
  summaryIn,
  toSummaryJson,
  toTransactionJson,
  transactionsToCsv,
} from "./ledger.server";
import { demoProvider, setPaymentProvider } from "./payment-provider.server";
import { splitPayout } from "~/utils/money";
import {
  CURRENCIES,
  CURRENCY_TABLE,
  feeMinor,
  unitsToMinor,
} from "~/domain/currency";
import { entriesOf, pay, settledBet } from "../../../tests/support/paid-bets";
import { rawDb as sqlite } from "../../../tests/support/raw-sql";

beforeAll(() => setPaymentProvider(demoProvider));

describe("the ledger", () => {
  it("refuses UPDATE and DELETE (trigger)", async () => {
    const { loser, bet } = await settledBet(10);
    await pay(bet.id, loser.id).then((i) =>
      recordPayment({ betId: bet.id, userId: loser.id, intentId: i.intentId }),
    );
    await expect(
      sqlite
        .prepare("UPDATE ledger_entries SET amount_cents = 0 WHERE bet_id = ?")
        .run(bet.id),
    ).rejects.toThrow("ledger entries are immutable");
    await expect(
      sqlite.prepare("DELETE FROM ledger_entries WHERE bet_id = ?").run(bet.id),
    ).rejects.toThrow("ledger entries are immutable");
    expect(await entriesOf(bet.id)).toHaveLength(4);
  });

  it("derives history and summary from entries: transactions sum to net profit", async () => {
    const { winner, loser, bet } = await settledBet(100);
    const i = await pay(bet.id, loser.id);
    await recordPayment({
      betId: bet.id,
      userId: loser.id,
      intentId: i.intentId,
    });
    const range = { fromMs: Date.now() - 60_000, toMs: Date.now() + 60_000 };
    const winnerTx = await listTransactions({ userId: winner.id, ...range });
    expect(
      winnerTx.map(toTransactionJson).map((t) => [t.type, t.amount]),
    ).toEqual([
      ["payout", "100.00"],
      ["fee", "-2.50"],
    ]);
    const loserTx = await listTransactions({ userId: loser.id, ...range });
    expect(loserTx.map(toTransactionJson)[0]).toMatchObject({
      type: "payment",
      amount: "-100.00",
      status: "completed",
    });
    const ws = summarize(winnerTx);
    expect(toSummaryJson(ws)).toEqual({
      winnings: 100,
      losses: 0,
      fees: 2.5,
      netProfit: 97.5,
      winsCount: 1,
      lossesCount: 0,
      winRate: 100,
    });
    expect(winnerTx.reduce((s, t) => s + t.amountCents, 0)).toBe(
      ws.netProfitCents,
    );
    expect(summarize(loserTx).netProfitCents).toBe(-10_000);
    expect(
      await listTransactions({ userId: winner.id, fromMs: 0, toMs: 1 }),
    ).toEqual([]);
  });

  it("escapes CSV cells that a spreadsheet would run", () => {
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2.50")).toBe("'-2.50");
    expect(csvCell("@SUM")).toBe("'@SUM");
    expect(csvCell('say "hi", ok')).toBe('"say ""hi"", ok"');
    expect(csvCell("plain")).toBe("plain");
    const csv = transactionsToCsv(
      [
        {
          id: 1,
          type: "payment",
          description: '=cmd|" /C calc"!A0',
          title: "calc",
          amountCents: -100,
          currency: "USD",
          status: "completed",
          createdAt: new Date(0),
          betId: 1,
        },
      ],
      () => "Jan 1, 1970",
    );
    expect(csv).toBe(
      'Date,Type,Description,Amount,Currency,Status\r\n"Jan 1, 1970",payment,"\'=cmd|"" /C calc""!A0",\'-1.00,USD,completed\r\n',
    );
  });

  it("each payment's entries sum to zero in the bet's currency, across currencies", async () => {
    // Real payments through the demo provider: a currency of the table and
    // an amount between its limits, drawn by fast-check.
    const cases = fc.sample(
      fc.constantFrom(...CURRENCIES).chain((currency) =>
        fc.tuple(
          fc.constant(currency),
          fc.integer({
            min: CURRENCY_TABLE[currency].min,
            max: CURRENCY_TABLE[currency].max,
          }),
        ),
      ),
      { numRuns: 4, seed: 57 },
    );
    // Every currency at least once, JPY's ¥1,001 among them.
    for (const c of CURRENCIES)
      cases.push([c, c === "JPY" ? 1001 : CURRENCY_TABLE[c].min]);
    for (const [currency, units] of cases) {
      const { loser, bet } = await settledBet(units, currency);
      expect(bet.currency).toBe(currency);
      const i = await pay(bet.id, loser.id);
      await recordPayment({
        betId: bet.id,
        userId: loser.id,
        intentId: i.intentId,
      });
      const entries = (await entriesOf(bet.id)) as {
        cents: number;
        currency: string;
        kind: string;
      }[];
      expect(entries).toHaveLength(4);
      expect(new Set(entries.map((e) => e.currency))).toEqual(
        new Set([currency]),
      );
      expect(entries.reduce((s, e) => s + Number(e.cents), 0)).toBe(0);
      const amount = unitsToMinor(units, currency);
      expect(entries.map((e) => [e.kind, Number(e.cents)])).toEqual([
        ["payment", -amount],
        ["payout", amount],
        ["fee", -feeMinor(amount)],
        ["fee", feeMinor(amount)],
      ]);
    }
    // Per currency, the whole ledger balances; no sum is taken across them.
    for (const currency of CURRENCIES)
      expect(await ledgerBalance(undefined, currency)).toBe(0);
  }, 120_000);

  it("keeps history per currency: JPY amounts whole, summaries apart", async () => {
    const yen = await settledBet(1001, "JPY");
    await pay(yen.bet.id, yen.loser.id).then((i) =>
      recordPayment({
        betId: yen.bet.id,
        userId: yen.loser.id,
        intentId: i.intentId,
      }),
    );
    const range = { fromMs: Date.now() - 60_000, toMs: Date.now() + 60_000 };
    const tx = await listTransactions({ userId: yen.winner.id, ...range });
    expect(
      tx.map(toTransactionJson).map((t) => [t.type, t.amount, t.currency]),
    ).toEqual([
      ["payout", "1001", "JPY"],
      ["fee", "-25", "JPY"],
    ]);
    expect(
      summariesByCurrency(tx).map((s) => [s.currency, s.netProfitCents]),
    ).toEqual([["JPY", 976]]);
    expect(summaryIn(tx, "USD").netProfitCents).toBe(0);
  });

  it("fee + net == amount for every whole-dollar amount $1…$10,000", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (dollars) => {
        const cents = dollars * 100;
        const { feeCents, netCents } = splitPayout(cents);
        return (
          feeCents + netCents === cents &&
          Number.isInteger(feeCents) &&
          feeCents >= 0 &&
          Math.abs(feeCents - cents * 0.025) <= 0.5
        );
      }),
      { numRuns: 10_000 },
    );
    for (let d = 1; d <= 10_000; d++) {
      const { feeCents, netCents } = splitPayout(d * 100);
      if (feeCents + netCents !== d * 100) throw new Error(`$${d}`);
    }
  });
});
