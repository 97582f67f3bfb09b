// Bets, the lists: the public feed, my bets by tab, the dashboard, and the
// sweep that stores what reads already show (expired pending bets cancelled).
import { CURRENCIES, type Currency } from "~/domain/currency";
import { and, desc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import { db, preparedOnce, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { betParticipants, bets } from "~/db/schema";

import {
  betViewColumns,
  effectiveStatus,
  toViews,
  viewOfRow,
  type BetView,
} from "./bet-access.server";
// --- Lists ------------------------------------------------------------------

export const PUBLIC_FEED_LIMIT = 50;

/** Public, pending, still open, newest first (docs/api.md). Never a private bet. */
export async function listPublicBets(
  now = Date.now(),
  limit = PUBLIC_FEED_LIMIT,
): Promise<BetView[]> {
  const rows = await db
    .select()
    .from(bets)
    .where(
      and(
        eq(bets.visibility, "public"),
        eq(bets.status, "pending"),
        gt(bets.deadline, new Date(now)),
      ),
    )
    .orderBy(desc(bets.createdAt), desc(bets.id))
    .limit(limit);
  return await toViews(rows, now);
}

export type BetListKind = "created" | "joined" | "completed";

/**
 * docs/product-rules.md#statuses: created = bets I created, joined = bets I joined second, both
 * pending or active; completed = settled bets I am in.
 */
const myBetIds = (seat?: number) =>
  db
    .select({ betId: betParticipants.betId })
    .from(betParticipants)
    .where(
      and(
        eq(betParticipants.userId, sql.placeholder("userId")),
        seat === undefined ? undefined : eq(betParticipants.seat, seat),
      ),
    );
const openAt = () =>
  or(
    and(eq(bets.status, "pending"), gt(bets.deadline, sql.placeholder("now"))),
    eq(bets.status, "active"),
  );
// With each bet's view in the same statement (betViewColumns).
const userBetQueries = {
  created: preparedOnce(() =>
    db
      .select(betViewColumns())
      .from(bets)
      .where(and(eq(bets.creatorId, sql.placeholder("userId")), openAt()))
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare("bet_lists_created"),
  ),
  joined: preparedOnce(() =>
    db
      .select(betViewColumns())
      .from(bets)
      .where(
        and(
          inArray(bets.id, myBetIds(2)),
          sql`${bets.creatorId} <> ${sql.placeholder("userId")}`,
          openAt(),
        ),
      )
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare("bet_lists_joined"),
  ),
  completed: preparedOnce(() =>
    db
      .select(betViewColumns())
      .from(bets)
      .where(and(inArray(bets.id, myBetIds()), eq(bets.status, "settled")))
      .orderBy(desc(bets.settledAt), desc(bets.id))
      .prepare("bet_lists_completed"),
  ),
  all: preparedOnce(() =>
    db
      .select(betViewColumns())
      .from(bets)
      .where(inArray(bets.id, myBetIds()))
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare("bet_lists_all"),
  ),
};

export async function listUserBets(
  userId: number,
  kind: BetListKind,
  now = Date.now(),
): Promise<BetView[]> {
  const rows = await userBetQueries[kind]().execute({ userId, now });
  return rows.map((row) => viewOfRow(row, now));
}

/** Every bet I am in, of any status, newest first (My Bets' All tab). */
export async function listAllUserBets(
  userId: number,
  now = Date.now(),
): Promise<BetView[]> {
  const rows = await userBetQueries.all().execute({ userId });
  return rows.map((row) => viewOfRow(row, now));
}

// --- Background sweep -------------------------------------------------------

/** Stores what reads already show: pending bets past their deadline are cancelled. */
export async function cancelExpiredBets(now = Date.now()): Promise<number> {
  return changedRows(
    await immediate(
      (tx) =>
        tx
          .update(bets)
          .set({ status: "cancelled", updatedAt: new Date(now) })
          .where(
            and(eq(bets.status, "pending"), lte(bets.deadline, new Date(now))),
          ),
      { bookkeeping: true },
    ),
  );
}

// --- Dashboard ----------------------------------------------------------------

/**
 * My open bets, created or joined, in one query: created = I created it,
 * joined = I hold the second seat of someone else's (the same two sets as
 * the "created" and "joined" lists, which the dashboard read separately,
 * with a second round of participant lookups, to show three rows), each
 * with its view's columns: the home page is one statement.
 */
const myOpenBets = preparedOnce(() =>
  db
    .select(betViewColumns())
    .from(bets)
    .where(
      and(
        or(
          eq(bets.creatorId, sql.placeholder("userId")),
          inArray(bets.id, myBetIds(2)),
        ),
        openAt(),
      ),
    )
    .orderBy(desc(bets.createdAt), desc(bets.id))
    .prepare("bet_lists_myOpenBets"),
);

export type Dashboard = {
  /** The newest `recentLimit` of my open bets, each with my role. */
  recent: (BetView & { type: "created" | "joined" })[];
  /** All my open bets: created + joined. */
  total: number;
  createdCount: number;
  joinedCount: number;
  /** docs/product-rules.md#statuses: the sum and count over my active bets (two participants, not settled). */
  /** US dollars only: kept for callers from before currencies. */
  atStakeCents: number;
  /** One figure per currency the active bets are in, in the table's order: never added together. */
  atStake: { currency: Currency; cents: number }[];
  atStakeCount: number;
};

export async function getDashboard(
  userId: number,
  now = Date.now(),
  recentLimit = 3,
): Promise<Dashboard> {
  const rows = await myOpenBets().execute({ userId, now });
  const open = rows.map((row) => row.bet);
  const createdCount = open.filter((b) => b.creatorId === userId).length;
  const active = open.filter((b) => effectiveStatus(b, now) === "active");
  return {
    recent: rows.slice(0, recentLimit).map((row) => ({
      ...viewOfRow(row, now),
      type: row.bet.creatorId === userId ? "created" : "joined",
    })),
    total: open.length,
    createdCount,
    joinedCount: open.length - createdCount,
    atStakeCents: active
      .filter((b) => b.currency === "USD")
      .reduce((sum, b) => sum + b.amountCents, 0),
    atStake: CURRENCIES.flatMap((currency) => {
      const inIt = active.filter((b) => b.currency === currency);
      return inIt.length
        ? [{ currency, cents: inIt.reduce((sum, b) => sum + b.amountCents, 0) }]
        : [];
    }),
    atStakeCount: active.length,
  };
}
