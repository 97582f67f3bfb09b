// Getting paid (docs/product-rules.md#getting-paid): the loser's reminders, the overdue
// notice, the winner's nudge, and everyone's payment record. The due date
// and its jobs are written when the bet settles (settlement.server.ts).
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db, immediate, preparedOnce } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import {
  betEvents,
  betParticipants,
  bets,
  payments,
  settlements,
  type Job,
} from "~/db/schema";
import { recordActivity } from "../social/activity.server";
import { ALREADY_PAID } from "./payment.server";
import { nameOf } from "../accounts/display-name.server";
import { BET_NOT_FOUND } from "~/domain/bet";
import { canViewBet, type BetCommand } from "../bets/bet-access.server";
import { conflict, DomainError, forbidden, notFound } from "~/utils/errors";
import { nudgeIntervalMs } from "../bets/windows.server";
import { announceBet } from "../notifications/live-events.server";

export const NOT_OWED = "Nothing is owed on this bet.";
export const NOT_WINNER = "Only the winner can nudge the loser.";

export class NudgeTooSoon extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    const hours = Math.max(1, Math.ceil(retryAfterSeconds / 3600));
    super(
      429,
      `You can nudge again in ${hours} ${hours === 1 ? "hour" : "hours"}.`,
    );
  }
}

/** The bet and its settlement (either may be missing). */
async function betAndSettlement(tx: Tx | typeof db, betId: number) {
  return {
    bet: (await tx.select().from(bets).where(eq(bets.id, betId)).limit(1))[0],
    settlement: (
      await tx
        .select()
        .from(settlements)
        .where(eq(settlements.betId, betId))
        .limit(1)
    )[0],
  };
}

/** A settled, unpaid bet with a loser, for the payment jobs; else null. */
async function owedBet(tx: Tx, betId: number) {
  const { bet, settlement } = await betAndSettlement(tx, betId);
  if (
    !bet ||
    bet.status !== "settled" ||
    !settlement?.settledAt ||
    settlement.outcome !== "winner" ||
    settlement.paymentStatus !== "pending" ||
    !bet.paymentDueAt
  )
    return null;
  return { bet, settlement };
}

/** A third of the way to `paymentDueAt`: the loser is reminded. */
export async function remindPayment(tx: Tx, job: Job) {
  const owed = await owedBet(tx, job.subjectId);
  if (!owed) return;
  const { bet, settlement } = owed;
  await recordActivity(tx, {
    userId: settlement.loserId!,
    actorId: settlement.winnerId,
    type: "payment_due",
    text: {
      key: "notify.paymentDue",
      values: {
        winner: await nameOf(tx, settlement.winnerId),
        amount: { money: bet.amountCents, currency: bet.currency },
        title: bet.title,
        dueAt: { at: bet.paymentDueAt!.getTime() },
      },
    },
    betId: bet.id,
  });
}

/** At `paymentDueAt`, unpaid: the loser is told once that it is overdue. */
export async function markOverdue(tx: Tx, job: Job, now: number) {
  const owed = await owedBet(tx, job.subjectId);
  if (!owed || owed.bet.paymentDueAt!.getTime() > now) return;
  const { bet, settlement } = owed;
  await tx
    .insert(betEvents)
    .values({ betId: bet.id, actorId: null, type: "payment_overdue" });
  await announceBet(tx, bet.id);
  await recordActivity(tx, {
    userId: settlement.loserId!,
    actorId: settlement.winnerId,
    type: "payment_overdue",
    text: {
      key: "notify.paymentOverdue",
      values: {
        amount: { money: bet.amountCents, currency: bet.currency },
        winner: await nameOf(tx, settlement.winnerId),
        title: bet.title,
        dueAt: { at: bet.paymentDueAt!.getTime() },
      },
    },
    betId: bet.id,
  });
}

export type NudgeState =
  | { can: true }
  | {
      can: false;
      status: 403 | 409 | 429;
      message: string;
      retryAfterSeconds?: number;
    };

/** Whether `userId` may nudge the loser of this bet now (one rule, one place). */
export async function nudgeState(
  betId: number,
  userId: number,
  now = Date.now(),
  tx: Tx | typeof db = db,
): Promise<NudgeState> {
  const { bet, settlement } = await betAndSettlement(tx, betId);
  const party =
    (
      await tx
        .select({ userId: betParticipants.userId })
        .from(betParticipants)
        .where(
          and(
            eq(betParticipants.betId, betId),
            eq(betParticipants.userId, userId),
          ),
        )
        .limit(1)
    )[0] !== undefined;
  if (!party) return { can: false, status: 403, message: NOT_WINNER };
  const settled =
    bet?.status === "settled" &&
    settlement?.settledAt &&
    settlement.outcome === "winner";
  if (settled && settlement.winnerId !== userId)
    return { can: false, status: 403, message: NOT_WINNER };
  if (!settled) return { can: false, status: 409, message: NOT_OWED };
  if (settlement.paymentStatus === "completed")
    return { can: false, status: 409, message: ALREADY_PAID };
  const interval = nudgeIntervalMs();
  if (bet.lastNudgedAt && now - bet.lastNudgedAt.getTime() < interval) {
    const waitMs = bet.lastNudgedAt.getTime() + interval - now;
    const error = new NudgeTooSoon(Math.ceil(waitMs / 1000));
    return {
      can: false,
      status: 429,
      message: error.message,
      retryAfterSeconds: error.retryAfterSeconds,
    };
  }
  return { can: true };
}

/** The winner nudges the loser, at most once per NUDGE_INTERVAL_S. */
export async function nudgePayment({
  betId,
  userId,
  now = Date.now(),
}: BetCommand) {
  await immediate(async (tx) => {
    const bet = (
      await tx.select().from(bets).where(eq(bets.id, betId)).limit(1)
    )[0];
    if (!bet || !(await canViewBet(bet, userId))) throw notFound(BET_NOT_FOUND);
    const state = await nudgeState(betId, userId, now, tx);
    if (!state.can) {
      if (state.status === 429)
        throw new NudgeTooSoon(state.retryAfterSeconds!);
      throw state.status === 403
        ? forbidden(state.message)
        : conflict(state.message);
    }
    const changed = await tx
      .update(bets)
      .set({ lastNudgedAt: new Date(now) })
      .where(
        and(
          eq(bets.id, betId),
          or(
            isNull(bets.lastNudgedAt),
            lte(bets.lastNudgedAt, new Date(now - nudgeIntervalMs())),
          ),
        ),
      );
    if (changedRows(changed) !== 1)
      throw new NudgeTooSoon(Math.ceil(nudgeIntervalMs() / 1000));
    const settlement = (
      await tx
        .select()
        .from(settlements)
        .where(eq(settlements.betId, betId))
        .limit(1)
    )[0]!;
    await tx
      .insert(betEvents)
      .values({ betId, actorId: userId, type: "nudged" });
    await announceBet(tx, betId);
    await recordActivity(tx, {
      userId: settlement.loserId!,
      actorId: userId,
      type: "payment_nudge",
      text: {
        key: "notify.nudged",
        values: {
          actor: await nameOf(tx, userId),
          amount: { money: bet.amountCents, currency: bet.currency },
          title: bet.title,
        },
      },
      betId,
    });
  });
}

// --- Payment record (docs/product-rules.md#getting-paid) --------------------------------------------------

export type PaymentRecord = {
  owed: number;
  paid: number;
  paidOnTime: number;
  overdue: number;
};

const EMPTY: PaymentRecord = { owed: 0, paid: 0, paidOnTime: 0, overdue: 0 };

// Asked for every person a bet page or profile shows: one small prepared
// query per person, found through the loser index (migration 0005), measured
// per person in docs/decisions/archive/0834-no-bound-value-against-a-partial-index.md. It replaced one query over the ids as a
// JSON array (measured in docs/decisions/archive/0833-pages-compressed-whole.md); most of that one's cost
// turned out to be the statement recompiling on every run (the same record), in both shapes, so for a page of
// dozens of people the JSON form may be the cheaper one again. Not measured
// since.
/** A person's record, unprepared (its plan is checked in a test). */
export const paymentRecordQuery = () =>
  db
    .select({
      owed: sql<number>`count(*)`,
      paid: sql<number>`coalesce(sum(CASE WHEN ${settlements.paymentStatus} = 'completed' THEN 1 ELSE 0 END), 0)`,
      paidOnTime: sql<number>`coalesce(sum(CASE WHEN ${settlements.paymentStatus} = 'completed' AND ${payments.completedAt} <= ${bets.paymentDueAt} THEN 1 ELSE 0 END), 0)`,
      overdue: sql<number>`coalesce(sum(CASE WHEN ${settlements.paymentStatus} = 'pending' AND ${bets.paymentDueAt} <= ${sql.placeholder("now")} THEN 1 ELSE 0 END), 0)`,
    })
    .from(settlements)
    .innerJoin(bets, eq(bets.id, settlements.betId))
    .leftJoin(
      payments,
      and(
        eq(payments.betId, settlements.betId),
        // A literal, not a bound value: `payments.status` is the column of a
        // partial index (payments_one_completed_per_bet), and SQLite
        // recompiles a statement every time it runs when a value bound to
        // such a column could change its plan: parsing on every bet page and
        // profile, several times the query's own cost (measured in
        // docs/decisions/archive/0834-no-bound-value-against-a-partial-index.md).
        sql`${payments.status} = 'completed'`,
      ),
    )
    .where(
      and(
        eq(settlements.loserId, sql.placeholder("userId")),
        sql`${settlements.settledAt} IS NOT NULL`,
        eq(settlements.outcome, "winner"),
      ),
    );
const paymentRecordRow = preparedOnce(() =>
  paymentRecordQuery().prepare("dues_paymentRecordRow"),
);

/** Settled bets lost, of those paid, paid by the due date, unpaid past it. */
export async function getPaymentRecords(
  userIds: number[],
  now = Date.now(),
): Promise<Map<number, PaymentRecord>> {
  const map = new Map<number, PaymentRecord>();
  for (const userId of new Set(userIds)) {
    const row = (await paymentRecordRow().execute({ userId, now }))[0];
    map.set(
      userId,
      row
        ? {
            owed: Number(row.owed),
            paid: Number(row.paid),
            paidOnTime: Number(row.paidOnTime),
            overdue: Number(row.overdue),
          }
        : { ...EMPTY },
    );
  }
  return map;
}

export async function getPaymentRecord(userId: number, now = Date.now()) {
  return (await getPaymentRecords([userId], now)).get(userId) ?? { ...EMPTY };
}

/** "Paid 5 of 5 lost bets, all on time" — where people decide to bet. */
export function describePaymentRecord(record: PaymentRecord): string {
  if (record.owed === 0) return "No lost bets to pay yet";
  const late = record.paid - record.paidOnTime;
  const timing =
    record.paid === 0 ? "" : late === 0 ? ", all on time" : `, ${late} late`;
  const overdue = record.overdue > 0 ? `; ${record.overdue} overdue` : "";
  return `Paid ${record.paid} of ${record.owed} lost ${record.owed === 1 ? "bet" : "bets"}${timing}${overdue}`;
}

/** Public user objects gain `paymentRecord` (docs/product-rules.md#getting-paid), in one query. */
export async function withPaymentRecords<T extends { id: number }>(
  people: T[],
  now = Date.now(),
): Promise<(T & { paymentRecord: PaymentRecord })[]> {
  const records = await getPaymentRecords(
    people.map((p) => p.id),
    now,
  );
  return people.map((p) => ({
    ...p,
    paymentRecord: records.get(p.id) ?? { ...EMPTY },
  }));
}

/** `[{id, friend}]` entries whose friend carries `paymentRecord`. */
export async function withFriendPaymentRecords<
  E extends { friend: { id: number } },
>(entries: E[], now = Date.now()) {
  const records = await getPaymentRecords(
    entries.map((e) => e.friend.id),
    now,
  );
  return entries.map((e) => ({
    ...e,
    paymentRecord: records.get(e.friend.id) ?? { ...EMPTY },
  }));
}
