// The ledger (docs/money.md#ledger): every completed payment writes immutable entries
// that sum to zero. Financial history and its summary are read from here and
// nowhere else. Triggers in drizzle/0001 refuse UPDATE and DELETE.
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db } from "~/db/transactions.server";
import { bets, ledgerEntries } from "~/db/schema";
import type { FinanceSummary } from "~/domain/finances";
import {
  CURRENCIES,
  minorToSignedString,
  minorToUnits,
  splitMinor,
  type Currency,
} from "~/domain/currency";
import { winRate } from "~/utils/money";

/** loser −amount; winner +amount and −fee; platform (userId null) +fee; all in the bet's currency. */
export async function writePaymentEntries(
  tx: Tx,
  p: {
    paymentId: number;
    betId: number;
    loserId: number;
    winnerId: number;
    /** In `currency`'s smallest unit: all four entries are in it and sum to zero. */
    amountCents: number;
    currency: Currency;
  },
) {
  const { feeMinor: feeCents } = splitMinor(p.amountCents);
  const base = {
    paymentId: p.paymentId,
    betId: p.betId,
    currency: p.currency,
  };
  await tx.insert(ledgerEntries).values([
    {
      ...base,
      userId: p.loserId,
      kind: "payment",
      amountCents: -p.amountCents,
    },
    {
      ...base,
      userId: p.winnerId,
      kind: "payout",
      amountCents: p.amountCents,
    },
    { ...base, userId: p.winnerId, kind: "fee", amountCents: -feeCents },
    { ...base, userId: null, kind: "fee", amountCents: feeCents },
  ]);
}

/** The sum of the entries (of one payment, or all) in one currency, US dollars unless named. */
export async function ledgerBalance(
  paymentId?: number,
  currency: Currency = "USD",
): Promise<number> {
  const row = (
    await db
      .select({
        total: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`,
      })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.currency, currency),
          paymentId === undefined
            ? undefined
            : eq(ledgerEntries.paymentId, paymentId),
        ),
      )
      .limit(1)
  )[0];
  return Number(row?.total ?? 0);
}

export type Transaction = {
  id: number;
  type: "payment" | "payout" | "fee";
  description: string;
  /** The bet's title (for a page that writes the description its own way). */
  title: string;
  /** In `currency`'s smallest unit. */
  amountCents: number;
  currency: Currency;
  status: "completed";
  createdAt: Date;
  betId: number;
};

const DESCRIBE = {
  payment: (title: string) => `Payment for "${title}"`,
  payout: (title: string) => `Winnings from "${title}"`,
  fee: (title: string) => `Platform fee (2.5%) on "${title}"`,
};

/** A user's entries in [fromMs, toMs), oldest first. */
export async function listTransactions({
  userId,
  fromMs,
  toMs,
}: {
  userId: number;
  fromMs: number;
  toMs: number;
}): Promise<Transaction[]> {
  return (
    await db
      .select({ entry: ledgerEntries, title: bets.title })
      .from(ledgerEntries)
      .innerJoin(bets, eq(bets.id, ledgerEntries.betId))
      .where(
        and(
          eq(ledgerEntries.userId, userId),
          gte(ledgerEntries.createdAt, new Date(fromMs)),
          lt(ledgerEntries.createdAt, new Date(toMs)),
        ),
      )
      .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
  ).map(({ entry, title }) => ({
    id: entry.id,
    type: entry.kind,
    description: DESCRIBE[entry.kind](title),
    title,
    amountCents: entry.amountCents,
    currency: entry.currency,
    status: "completed" as const,
    createdAt: entry.createdAt,
    betId: entry.betId,
  }));
}

/**
 * Winnings gross, fees positive, net = winnings − losses − fees, of the
 * transactions given: one currency's (`summaryIn`, `summariesByCurrency`),
 * never money of several added together.
 */
export function summarize(transactions: Transaction[]): FinanceSummary {
  let winnings = 0;
  let losses = 0;
  let fees = 0;
  let wins = 0;
  let lost = 0;
  for (const t of transactions) {
    if (t.type === "payout") {
      winnings += t.amountCents;
      wins += 1;
    } else if (t.type === "payment") {
      losses += -t.amountCents;
      lost += 1;
    } else fees += -t.amountCents;
  }
  return {
    winningsCents: winnings,
    lossesCents: losses,
    feesCents: fees,
    netProfitCents: winnings - losses - fees,
    winsCount: wins,
    lossesCount: lost,
    winRate: winRate(wins, lost),
  };
}

/** One currency's summary: only its transactions. */
export function summaryIn(transactions: Transaction[], currency: Currency) {
  return summarize(transactions.filter((t) => t.currency === currency));
}

/** A summary per currency the transactions have money in, in the table's order. */
export function summariesByCurrency(
  transactions: Transaction[],
): (FinanceSummary & { currency: Currency })[] {
  const present = new Set(transactions.map((t) => t.currency));
  return CURRENCIES.filter((c) => present.has(c)).map((currency) => ({
    currency,
    ...summaryIn(transactions, currency),
  }));
}

export function toTransactionJson(t: Transaction) {
  return {
    id: t.id,
    type: t.type,
    description: t.description,
    // "-1000" in JPY, "-12.50" in EUR: the currency's digits (docs/api.md).
    amount: minorToSignedString(t.amountCents, t.currency),
    currency: t.currency,
    status: t.status,
    createdAt: t.createdAt.toISOString(),
  };
}

/** A summary's money as numbers in its currency (US dollars unless named). */
export function toSummaryJson(s: FinanceSummary, currency: Currency = "USD") {
  return {
    winnings: minorToUnits(s.winningsCents, currency),
    losses: minorToUnits(s.lossesCents, currency),
    fees: minorToUnits(s.feesCents, currency),
    netProfit: minorToUnits(s.netProfitCents, currency),
    winsCount: s.winsCount,
    lossesCount: s.lossesCount,
    winRate: s.winRate,
  };
}

/** A cell a spreadsheet would run as a formula is made plain text. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function transactionsToCsv(
  transactions: Transaction[],
  formatDay: (d: Date) => string,
): string {
  // Each row in its own currency: the file never adds currencies together.
  const rows = [
    ["Date", "Type", "Description", "Amount", "Currency", "Status"],
  ];
  for (const t of transactions)
    rows.push([
      formatDay(t.createdAt),
      t.type,
      t.description,
      minorToSignedString(t.amountCents, t.currency),
      t.currency,
      t.status,
    ]);
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
