// The ledger (docs/product-rules.md#paying): immutable entries, history and summary, CSV, fees.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPayment } from "./payment.server";
import {
  csvCell,
  listTransactions,
  summarize,
  toSummaryJson,
  toTransactionJson,
  transactionsToCsv,
} from "./ledger.server";
import { demoProvider, setPaymentProvider } from "./payment-provider.server";
import { splitPayout } from "~/utils/money";
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
          amountCents: -100,
          status: "completed",
          createdAt: new Date(0),
          betId: 1,
        },
      ],
      () => "Jan 1, 1970",
    );
    expect(csv).toBe(
      'Date,Type,Description,Amount,Status\r\n"Jan 1, 1970",payment,"\'=cmd|"" /C calc""!A0",\'-1.00,completed\r\n',
    );
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
