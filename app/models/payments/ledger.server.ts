// The ledger (docs/money.md#ledger): every completed payment writes immutable entries
// that sum to zero. Financial history and its summary are read from here and
// nowhere else. Triggers in drizzle/0001 refuse UPDATE and DELETE.
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db } from "~/db/transactions.server";
import { bets, ledgerEntries } from "~/db/schema";
import type { FinanceSummary } from "~/domain/finances";
import {
  centsToDollars,
  centsToSignedString,
  splitPayout,
  winRate,
} from "~/utils/money";

/** loser −amount; winner +amount and −fee; platform (userId null) +fee. */
export async function writePaymentEntries(
  tx: Tx,
  p: {
    paymentId: number;
    betId: number;
    loserId: number;
    winnerId: number;
    amountCents: number;
  },
) {
  const { feeCents } = splitPayout(p.amountCents);
  const base = { paymentId: p.paymentId, betId: p.betId };
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

export async function ledgerBalance(paymentId?: number): Promise<number> {
  const row = (
    await db
      .select({
        total: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`,
      })
      .from(ledgerEntries)
      .where(
        paymentId === undefined
          ? undefined
          : eq(ledgerEntries.paymentId, paymentId),
      )
      .limit(1)
  )[0];
  return row?.total ?? 0;
}

export type Transaction = {
  id: number;
  type: "payment" | "payout" | "fee";
  description: string;
  amountCents: number;
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
    amountCents: entry.amountCents,
    status: "completed" as const,
    createdAt: entry.createdAt,
    betId: entry.betId,
  }));
}

/** Winnings gross, fees positive, net = winnings − losses − fees. */
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

export function toTransactionJson(t: Transaction) {
  return {
    id: t.id,
    type: t.type,
    description: t.description,
    amount: centsToSignedString(t.amountCents),
    status: t.status,
    createdAt: t.createdAt.toISOString(),
  };
}

export function toSummaryJson(s: FinanceSummary) {
  return {
    winnings: centsToDollars(s.winningsCents),
    losses: centsToDollars(s.lossesCents),
    fees: centsToDollars(s.feesCents),
    netProfit: centsToDollars(s.netProfitCents),
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
  const rows = [["Date", "Type", "Description", "Amount", "Status"]];
  for (const t of transactions)
    rows.push([
      formatDay(t.createdAt),
      t.type,
      t.description,
      centsToSignedString(t.amountCents),
      t.status,
    ]);
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
