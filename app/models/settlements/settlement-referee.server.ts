// Settlements, the referee (docs/product-rules.md#referee): after a rejection either party hands
// the dispute to the bet's referee, whose ruling settles it at once.
import { and, eq, sql } from "drizzle-orm";
import { db, immediate, type Tx } from "~/db/client.server";
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
import { responseWindowMs } from "~/utils/windows.server";
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
  usernameOf,
  type Parties,
} from "./settlement-rules.server";
import { finalise } from "./settlement-finalise.server";
import { announceBet } from "../notifications/live-events.server";

function hasRejection(tx: Tx | typeof db, betId: number) {
  return (
    tx
      .select({ id: betEvents.id })
      .from(betEvents)
      .where(
        and(
          eq(betEvents.betId, betId),
          eq(betEvents.type, "settlement_rejected"),
        ),
      )
      .get() !== undefined
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
  liveProposal: () => boolean;
  rejected: () => boolean;
};

/** The referral policy: what stops `userId` from asking the referee now, or null. */
function referralRefusal(
  bet: Bet,
  userId: number,
  { parties, liveProposal, rejected }: ReferralFacts,
): { status: 403 | 409; message: string } | null {
  if (!isParty(parties, userId) && bet.creatorId !== userId)
    return { status: 403, message: NOT_A_PARTY_REFER };
  if (!bet.refereeId) return { status: 409, message: NO_REFEREE };
  if (effectiveStatus(bet) !== "active")
    return {
      status: 409,
      message: bet.status === "settled" ? ALREADY_SETTLED : NOT_ACTIVE,
    };
  if (bet.disputeReferredAt) return { status: 409, message: ALREADY_REFERRED };
  if (liveProposal()) return { status: 409, message: REFER_LIVE_PROPOSAL };
  if (!rejected()) return { status: 409, message: REFER_NOTHING_REJECTED };
  return null;
}

/** The referral policy over the database (the refer action, in its transaction). */
export function referralBlock(
  bet: Bet,
  userId: number,
  tx: Tx | typeof db = db,
) {
  return referralRefusal(bet, userId, {
    parties: partiesOf(tx, bet.id),
    liveProposal: () => liveSettlement(tx, bet.id) !== undefined,
    rejected: () => hasRejection(tx, bet.id),
  });
}

/**
 * The same policy for a bet page, from what the page has already read: the
 * bet as the viewer sees it (its seats) and whether a proposal is live.
 */
export function referralBlockForPage(
  bet: BetView,
  userId: number,
  liveProposal: boolean,
) {
  return referralRefusal(bet, userId, {
    parties: partiesOfView(bet),
    liveProposal: () => liveProposal,
    rejected: () => hasRejection(db, bet.id),
  });
}

/** After a rejection either party hands the dispute to the referee. */
export function referDispute({
  betId,
  userId,
  now = Date.now(),
}: BetCommand): BetView {
  immediate((tx) => {
    const { bet } = loadBet(tx, betId, userId);
    const block = referralBlock(bet, userId, tx);
    if (block)
      throw block.status === 403
        ? forbidden(block.message)
        : conflict(block.message);
    const changed = tx
      .update(bets)
      .set({ disputeReferredAt: new Date(now), disputeReferredBy: userId })
      .where(
        and(
          eq(bets.id, betId),
          eq(bets.status, "active"),
          sql`${bets.disputeReferredAt} IS NULL`,
        ),
      )
      .run();
    if (changed.changes !== 1) throw conflict(ALREADY_REFERRED);
    tx.insert(betEvents)
      .values({ betId, actorId: userId, type: "referred" })
      .run();
    announceBet(tx, betId);
    recordActivity(tx, {
      userId: bet.refereeId!,
      actorId: userId,
      type: "referee_requested",
      message: `${usernameOf(tx, userId)} asked you to referee "${bet.title}": please rule on who won`,
      betId,
    });
    // A referral has no timeout; the referee is reminded instead.
    const window = responseWindowMs();
    for (const [n, delay] of [
      [1, Math.round(window / 3)],
      [2, window],
    ] as const) {
      scheduleJob(tx, {
        kind: "referee_reminder",
        subjectId: betId,
        runAt: now + delay,
        key: `referee_reminder:${betId}:${now}:${n}`,
        payload: { referredAt: now },
      });
    }
  });
  return getBetView(betId)!;
}

export function remindReferee(tx: Tx, job: Job) {
  const bet = tx.select().from(bets).where(eq(bets.id, job.subjectId)).get();
  if (
    !bet ||
    bet.status !== "active" ||
    !bet.refereeId ||
    bet.disputeReferredAt?.getTime() !== Number(job.payload?.referredAt)
  )
    return;
  recordActivity(tx, {
    userId: bet.refereeId,
    actorId: bet.disputeReferredBy,
    type: "referee_requested",
    message: `Reminder: "${bet.title}" is waiting for your ruling as referee`,
    betId: bet.id,
  });
}

/** The referee's ruling settles (or calls off) at once, `resolution: "referee"`. */
export function ruleDispute({
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
}): { bet: BetView; settlement: Settlement } {
  const settlement = immediate(
    (tx) => {
      const bet = tx.select().from(bets).where(eq(bets.id, betId)).get();
      if (!bet || !canViewBet(bet, userId)) throw notFound(BET_NOT_FOUND);
      const refusal = ruleRefusal(ruleFactsOf(bet), userId);
      if (refusal) throw refused(refusal);
      const parties = partiesOf(tx, betId)!;
      if (outcome === "winner") assertWinner(parties, winnerId);
      else if (winnerId !== null) throw invalid(VOID_WITH_WINNER);
      // A proposal the sides made meanwhile gives way to the ruling; the
      // history keeps it.
      const live = liveSettlement(tx, betId);
      if (live) {
        tx.delete(settlements)
          .where(
            and(
              eq(settlements.betId, betId),
              sql`${settlements.settledAt} IS NULL`,
            ),
          )
          .run();
        tx.insert(betEvents)
          .values({
            betId,
            actorId: userId,
            type: "settlement_superseded",
            data: { winnerId: live.winnerId, proposedBy: live.proposedBy },
          })
          .run();
        announceBet(tx, betId);
      }
      const loserId = loserOf(parties, outcome, winnerId);
      const ruling = tx
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
        .get();
      tx.insert(betEvents)
        .values({
          betId,
          actorId: userId,
          type: "ruled",
          data: { outcome, winnerId },
        })
        .run();
      announceBet(tx, betId);
      return finalise(tx, {
        bet,
        settlement: ruling,
        parties,
        actorId: userId,
        resolution: "referee",
        now,
      });
    },
    { durable: true },
  );
  return { bet: getBetView(betId)!, settlement };
}
