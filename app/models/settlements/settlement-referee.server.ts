// Settlements, the referee (docs/product-rules.md#referee): after a rejection either party hands
// the dispute to the bet's referee, whose ruling settles it at once.
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db, immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import {
  betEvents,
  bets,
  settlements,
  type Bet,
  type Job,
  type Outcome,
  type Settlement,
} from "~/db/schema";
import { recordActivity } from "../social/activity.server";
import { scheduleJob } from "../jobs/jobs.server";
import { BET_NOT_FOUND } from "~/domain/bet";
import {
  canViewBet,
  effectiveStatus,
  getBetView,
  type BetCommand,
  type BetView,
} from "../bets/bet-access.server";
import {
  conflict,
  forbidden,
  invalid,
  notFound,
  refused,
} from "~/utils/errors";
import { responseWindowMs } from "../bets/windows.server";
import {
  ALREADY_REFERRED,
  ALREADY_SETTLED,
  NO_REFEREE,
  NOT_A_PARTY_REFER,
  NOT_ACTIVE,
  ruleRefusal,
  type RuleFacts,
  REFER_LIVE_PROPOSAL,
  REFER_NOTHING_REJECTED,
  VOID_WITH_WINNER,
  assertWinner,
  isParty,
  liveSettlement,
  loadBet,
  loserOf,
  partiesOf,
  partiesOfView,
  type Parties,
} from "./settlement-rules.server";
import { nameOf } from "../accounts/display-name.server";
import { finalise } from "./settlement-finalise.server";
import { announceBet } from "../notifications/live-events.server";

async function hasRejection(tx: Tx | typeof db, betId: number) {
  return (
    (
      await tx
        .select({ id: betEvents.id })
        .from(betEvents)
        .where(
          and(
            eq(betEvents.betId, betId),
            eq(betEvents.type, "settlement_rejected"),
          ),
        )
        .limit(1)
    )[0] !== undefined
  );
}

/** The referee policy's facts from a bet row (or the viewer's view of it). */
export function ruleFactsOf(bet: {
  refereeId: number | null;
  disputeReferredAt: Date | null;
  status: Bet["status"];
  deadline: Date;
}): RuleFacts {
  return {
    refereeId: bet.refereeId,
    status: effectiveStatus(bet as Bet),
    referred: bet.disputeReferredAt !== null,
  };
}

/** What the referral policy reads beyond the bet, asked only if it gets that far. */
type ReferralFacts = {
  parties: Parties | null;
  liveProposal: () => Promise<boolean> | boolean;
  rejected: () => Promise<boolean> | boolean;
};

/** The referral policy: what stops `userId` from asking the referee now, or null. */
async function referralRefusal(
  bet: Bet,
  userId: number,
  { parties, liveProposal, rejected }: ReferralFacts,
): Promise<{ status: 403 | 409; message: string } | null> {
  if (!isParty(parties, userId) && bet.creatorId !== userId)
    return { status: 403, message: NOT_A_PARTY_REFER };
  if (!bet.refereeId) return { status: 409, message: NO_REFEREE };
  if (effectiveStatus(bet) !== "active")
    return {
      status: 409,
      message: bet.status === "settled" ? ALREADY_SETTLED : NOT_ACTIVE,
    };
  if (bet.disputeReferredAt) return { status: 409, message: ALREADY_REFERRED };
  if (await liveProposal())
    return { status: 409, message: REFER_LIVE_PROPOSAL };
  if (!(await rejected()))
    return { status: 409, message: REFER_NOTHING_REJECTED };
  return null;
}

/** The referral policy over the database (the refer action, in its transaction). */
export async function referralBlock(
  bet: Bet,
  userId: number,
  tx: Tx | typeof db = db,
) {
  return await referralRefusal(bet, userId, {
    parties: await partiesOf(tx, bet.id),
    liveProposal: async () => (await liveSettlement(tx, bet.id)) !== undefined,
    rejected: async () => hasRejection(tx, bet.id),
  });
}

/**
 * The same policy for a bet page, from what the page has already read: the
 * bet as the viewer sees it (its seats) and whether a proposal is live.
 */
export async function referralBlockForPage(
  bet: BetView,
  userId: number,
  liveProposal: boolean,
) {
  return await referralRefusal(bet, userId, {
    parties: partiesOfView(bet),
    liveProposal: () => liveProposal,
    rejected: async () => hasRejection(db, bet.id),
  });
}

/** After a rejection either party hands the dispute to the referee. */
export async function referDispute({
  betId,
  userId,
  now = Date.now(),
}: BetCommand): Promise<BetView> {
  await immediate(
    async (tx) => {
      const { bet } = await loadBet(tx, betId, userId);
      const block = await referralBlock(bet, userId, tx);
      if (block)
        throw block.status === 403
          ? forbidden(block.message)
          : conflict(block.message);
      const changed = await tx
        .update(bets)
        .set({ disputeReferredAt: new Date(now), disputeReferredBy: userId })
        .where(
          and(
            eq(bets.id, betId),
            eq(bets.status, "active"),
            sql`${bets.disputeReferredAt} IS NULL`,
          ),
        );
      if (changedRows(changed) !== 1) throw conflict(ALREADY_REFERRED);
      await tx
        .insert(betEvents)
        .values({ betId, actorId: userId, type: "referred" });
      await announceBet(tx, betId);
      await recordActivity(tx, {
        userId: bet.refereeId!,
        actorId: userId,
        type: "referee_requested",
        text: {
          key: "notify.refereeAsked",
          values: { actor: await nameOf(tx, userId), title: bet.title },
        },
        betId,
      });
      // A referral has no timeout; the referee is reminded instead.
      const window = responseWindowMs();
      for (const [n, delay] of [
        [1, Math.round(window / 3)],
        [2, window],
      ] as const) {
        await scheduleJob(tx, {
          kind: "referee_reminder",
          subjectId: betId,
          runAt: now + delay,
          key: `referee_reminder:${betId}:${now}:${n}`,
          payload: { referredAt: now },
        });
      }
    },
    { moneyOrMembership: true },
  );
  return (await getBetView(betId))!;
}

export async function remindReferee(tx: Tx, job: Job) {
  const bet = (
    await tx.select().from(bets).where(eq(bets.id, job.subjectId)).limit(1)
  )[0];
  if (
    !bet ||
    bet.status !== "active" ||
    !bet.refereeId ||
    bet.disputeReferredAt?.getTime() !== Number(job.payload?.referredAt)
  )
    return;
  await recordActivity(tx, {
    userId: bet.refereeId,
    actorId: bet.disputeReferredBy,
    type: "referee_requested",
    text: { key: "notify.refereeReminder", values: { title: bet.title } },
    betId: bet.id,
  });
}

/** The referee's ruling settles (or calls off) at once, `resolution: "referee"`. */
export async function ruleDispute({
  betId,
  userId,
  outcome,
  winnerId,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  outcome: Outcome;
  winnerId: number | null;
  now?: number;
}): Promise<{ bet: BetView; settlement: Settlement }> {
  const settlement = await immediate(
    async (tx) => {
      const bet = (
        await tx.select().from(bets).where(eq(bets.id, betId)).limit(1)
      )[0];
      if (!bet || !(await canViewBet(bet, userId)))
        throw notFound(BET_NOT_FOUND);
      const refusal = ruleRefusal(ruleFactsOf(bet), userId);
      if (refusal) throw refused(refusal);
      const parties = (await partiesOf(tx, betId))!;
      if (outcome === "winner") assertWinner(parties, winnerId);
      else if (winnerId !== null) throw invalid(VOID_WITH_WINNER);
      // A proposal the sides made meanwhile gives way to the ruling; the
      // history keeps it.
      const live = await liveSettlement(tx, betId);
      if (live) {
        await tx
          .delete(settlements)
          .where(
            and(
              eq(settlements.betId, betId),
              sql`${settlements.settledAt} IS NULL`,
            ),
          );
        await tx.insert(betEvents).values({
          betId,
          actorId: userId,
          type: "settlement_superseded",
          data: { winnerId: live.winnerId, proposedBy: live.proposedBy },
        });
        await announceBet(tx, betId);
      }
      const loserId = loserOf(parties, outcome, winnerId);
      const ruling = (
        await tx
          .insert(settlements)
          .values({
            betId,
            outcome,
            winnerId,
            loserId,
            proposedBy: userId,
            creatorApproved: true,
            participantApproved: true,
            proposedAt: new Date(now),
            paymentStatus: "pending",
          })
          .returning()
      )[0]!;
      await tx.insert(betEvents).values({
        betId,
        actorId: userId,
        type: "ruled",
        data: { outcome, winnerId },
      });
      await announceBet(tx, betId);
      return await finalise(tx, {
        bet,
        settlement: ruling,
        parties,
        actorId: userId,
        resolution: "referee",
        now,
      });
    },
    { durable: true, moneyOrMembership: true },
  );
  return { bet: (await getBetView(betId))!, settlement };
}
