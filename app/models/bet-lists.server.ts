// Bets, the lists: the public feed, my bets by tab, the dashboard, and the
// sweep that stores what reads already show (expired pending bets cancelled).
import { and, desc, eq, gt, inArray, lte, or, sql } from "drizzle-orm";
import { db, preparedOnce } from "~/db/client.server";
import { betParticipants, bets } from "~/db/schema";

import { toViews, type BetView } from "./bet-access.server";
// --- Lists ------------------------------------------------------------------

export const PUBLIC_FEED_LIMIT = 50;

/** Public, pending, still open, newest first (DESIGN §3a). Never a private bet. */
export function listPublicBets(
  now = Date.now(),
  limit = PUBLIC_FEED_LIMIT,
): BetView[] {
  const rows = db
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
    .limit(limit)
    .all();
  return toViews(rows, now);
}

export type BetListKind = "created" | "joined" | "completed";

/**
 * Ruling 5: created = bets I created, joined = bets I joined second, both
 * pending or active; completed = settled bets I am in.
 */
const myBetIds = (seat?: number) =>
  db
    .select({ betId: betParticipants.betId })
    .from(betParticipants)
    .where(
      and(
        eq(betParticipants.userId, sql.placeholder("userId")),
        seat === undefined ? sql`1` : eq(betParticipants.seat, seat),
      ),
    );
const openAt = () =>
  or(
    and(eq(bets.status, "pending"), gt(bets.deadline, sql.placeholder("now"))),
    eq(bets.status, "active"),
  );
const userBetQueries = {
  created: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(and(eq(bets.creatorId, sql.placeholder("userId")), openAt()))
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare(),
  ),
  joined: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(
        and(
          inArray(bets.id, myBetIds(2)),
          sql`${bets.creatorId} <> ${sql.placeholder("userId")}`,
          openAt(),
        ),
      )
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare(),
  ),
  completed: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(and(inArray(bets.id, myBetIds()), eq(bets.status, "settled")))
      .orderBy(desc(bets.settledAt), desc(bets.id))
      .prepare(),
  ),
  all: preparedOnce(() =>
    db
      .select()
      .from(bets)
      .where(inArray(bets.id, myBetIds()))
      .orderBy(desc(bets.createdAt), desc(bets.id))
      .prepare(),
  ),
};

export function listUserBets(
  userId: number,
  kind: BetListKind,
  now = Date.now(),
): BetView[] {
  const rows = userBetQueries[kind]().all({ userId, now });
  return toViews(rows, now);
}

/** Every bet I am in, of any status, newest first (My Bets' All tab). */
export function listAllUserBets(userId: number, now = Date.now()): BetView[] {
  return toViews(userBetQueries.all().all({ userId }), now);
}

// --- Background sweep -------------------------------------------------------

/** Stores what reads already show: pending bets past their deadline are cancelled. */
export function cancelExpiredBets(now = Date.now()): number {
  return db
    .update(bets)
    .set({ status: "cancelled", updatedAt: new Date(now) })
    .where(and(eq(bets.status, "pending"), lte(bets.deadline, new Date(now))))
    .run().changes;
}

// --- Dashboard ----------------------------------------------------------------

export type Dashboard = {
  /** Created and joined bets (pending or active), newest first, each with my role. */
  bets: (BetView & { type: "created" | "joined" })[];
  createdCount: number;
  joinedCount: number;
  /** Ruling 5: the sum and count over my active bets (two participants, not settled). */
  atStakeCents: number;
  atStakeCount: number;
};

export function getDashboard(userId: number, now = Date.now()): Dashboard {
  const created = listUserBets(userId, "created", now);
  const joined = listUserBets(userId, "joined", now);
  const bets = [
    ...created.map((b) => ({ ...b, type: "created" as const })),
    ...joined.map((b) => ({ ...b, type: "joined" as const })),
  ].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
  );
  const active = bets.filter((b) => b.status === "active");
  return {
    bets,
    createdCount: created.length,
    joinedCount: joined.length,
    atStakeCents: active.reduce((sum, b) => sum + b.amountCents, 0),
    atStakeCount: active.length,
  };
}
