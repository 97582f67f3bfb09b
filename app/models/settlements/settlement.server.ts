// Settlements: two people agree on a winner (docs/product-rules.md#settlement: nobody wins by their
// own word). One live settlement per bet, keyed by the bet's id (docs/product-rules.md#settlement).
// Every change runs in one BEGIN IMMEDIATE transaction with conditional
// updates, so simultaneous approvals settle a bet once.
import { and, eq, sql } from "drizzle-orm";
import { immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import {
  betEvents,
  settlements,
  type Outcome,
  type Settlement,
} from "~/db/schema";
import { recordActivity } from "../social/activity.server";
import {
  getBetView,
  type BetCommand,
  type BetView,
} from "../bets/bet-access.server";
import { conflict, invalid, refused } from "~/utils/errors";
import { timeOutIfDue } from "./settlement-sweep.server";
import {
  ALREADY_APPROVED,
  ALREADY_SETTLED,
  NOT_ACTIVE,
  VOID_WITH_WINNER,
  WINDOW_CLOSED,
  assertWinner,
  liveSettlement,
  loadBet,
  otherSide,
  approveRefusal,
  proposeRefusal,
  rejectRefusal,
  responseFactsOf,
  settleRefusal,
  settleFactsOf,
} from "./settlement-rules.server";
import { nameOf } from "../accounts/display-name.server";
import {
  finalise,
  insertProposal,
  proposedWords,
} from "./settlement-finalise.server";
import { announceBet } from "../notifications/live-events.server";

// --- Propose, approve, reject, settle -----------------------------------------

/** Either party of an active bet with no live proposal names a winner or void. */
export async function proposeSettlement({
  betId,
  userId,
  winnerId = null,
  outcome = "winner",
  notes = null,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  winnerId?: number | null;
  outcome?: Outcome;
  notes?: string | null;
  now?: number;
}): Promise<Settlement> {
  return await immediate(
    async (tx) => {
      const { bet, parties } = await loadBet(tx, betId, userId);
      const refusal = proposeRefusal(
        await settleFactsOf(tx, bet, parties),
        userId,
      );
      if (refusal) throw refused(refusal);
      if (outcome === "winner") assertWinner(parties!, winnerId);
      else if (winnerId !== null) throw invalid(VOID_WITH_WINNER);
      const settlement = await insertProposal(tx, bet, parties!, {
        proposerId: userId,
        outcome,
        winnerId,
        notes,
        now,
      });
      await recordActivity(tx, {
        userId: otherSide(parties!, userId),
        actorId: userId,
        type: "settlement_proposed",
        text: await proposedWords(tx, {
          title: bet.title,
          outcome,
          winnerId,
          proposerId: userId,
          respondBy: settlement.respondBy,
        }),
        betId,
      });
      return settlement;
    },
    { moneyOrMembership: true },
  );
}

/** The other side approves; with both sides in, the bet is settled. */
export async function approveSettlement({
  betId,
  userId,
  now = Date.now(),
}: BetCommand): Promise<{ bet: BetView; settlement: Settlement }> {
  const settlement = await immediate(
    async (tx) => {
      const { bet, parties } = await loadBet(tx, betId, userId);
      const live = await liveSettlement(tx, betId);
      const refusal = approveRefusal(
        responseFactsOf(bet, parties, live),
        userId,
      );
      if (refusal) throw refused(refusal);
      // Past the window the proposal stands as its timeout settles it.
      const timedOut = await timeOutIfDue(tx, live!, now);
      if (timedOut) return timedOut;
      const side =
        userId === parties!.creatorId
          ? "creatorApproved"
          : "participantApproved";
      const changed = await tx
        .update(settlements)
        .set({ [side]: true })
        .where(
          and(
            eq(settlements.betId, betId),
            eq(settlements[side], false),
            sql`${settlements.settledAt} IS NULL`,
          ),
        );
      if (changedRows(changed) !== 1) throw conflict(ALREADY_APPROVED);
      await tx
        .insert(betEvents)
        .values({ betId, actorId: userId, type: "settlement_approved" });
      await announceBet(tx, betId);
      const current = (await liveSettlement(tx, betId))!;
      if (!(current.creatorApproved && current.participantApproved)) {
        return current;
      }
      return await finalise(tx, {
        bet,
        settlement: current,
        parties: parties!,
        actorId: userId,
        resolution: "agreed",
        now,
      });
    },
    { durable: true, moneyOrMembership: true },
  );
  return { bet: (await getBetView(betId))!, settlement };
}

/** Either party rejects (the proposer withdrawing); the history keeps it. */
export async function rejectSettlement({
  betId,
  userId,
  reason = null,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  reason?: string | null;
  now?: number;
}) {
  const outcome = await immediate(
    async (tx) => {
      const { bet, parties } = await loadBet(tx, betId, userId);
      const live = await liveSettlement(tx, betId);
      const refusal = rejectRefusal(
        responseFactsOf(bet, parties, live),
        userId,
      );
      if (refusal) throw refused(refusal);
      const proposal = live!; // the policy refuses when there is none
      // Too late, whether or not the sweep has run: the timeout's settlement
      // is written (and kept: the 409 comes after the commit).
      if (await timeOutIfDue(tx, proposal, now)) return "window closed";
      const removed = await tx
        .delete(settlements)
        .where(
          and(
            eq(settlements.betId, betId),
            sql`${settlements.settledAt} IS NULL`,
          ),
        );
      if (changedRows(removed) !== 1) throw conflict(ALREADY_SETTLED);
      await tx.insert(betEvents).values({
        betId,
        actorId: userId,
        type: "settlement_rejected",
        data: {
          outcome: proposal.outcome,
          winnerId: proposal.winnerId,
          proposedBy: proposal.proposedBy,
          notes: proposal.notes,
          reason,
        },
      });
      await announceBet(tx, betId);
      await recordActivity(tx, {
        userId: otherSide(parties!, userId),
        actorId: userId,
        type: "settlement_rejected",
        text: {
          key:
            proposal.proposedBy === userId
              ? "notify.withdrew"
              : reason
                ? "notify.rejectedBecause"
                : "notify.rejected",
          values: {
            actor: await nameOf(tx, userId),
            title: bet.title,
            ...(reason && proposal.proposedBy !== userId && { reason }),
          },
        },
        betId,
      });
      return "rejected";
    },
    { moneyOrMembership: true },
  );
  if (outcome === "window closed") throw conflict(WINDOW_CLOSED);
}

export type DirectSettleResult =
  | { kind: "settled"; bet: BetView; settlement: Settlement }
  | { kind: "proposed"; settlement: Settlement };

/**
 * The creator settles directly (docs/product-rules.md#settlement): naming the other participant is a
 * concession and settles at once; naming themself, or calling it off, is
 * only a proposal.
 */
export async function settleBet({
  betId,
  userId,
  winnerId = null,
  outcome = "winner",
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  winnerId?: number | null;
  outcome?: Outcome;
  now?: number;
}): Promise<DirectSettleResult> {
  const result = await immediate(
    async (tx) => {
      const { bet, parties } = await loadBet(tx, betId, userId);
      const refusal = settleRefusal(
        await settleFactsOf(tx, bet, parties),
        userId,
      );
      if (refusal) throw refused(refusal);
      if (!parties) throw conflict(NOT_ACTIVE);
      if (outcome === "winner") assertWinner(parties, winnerId);
      else if (winnerId !== null) throw invalid(VOID_WITH_WINNER);
      const proposal = await insertProposal(tx, bet, parties, {
        proposerId: userId,
        outcome,
        winnerId,
        notes: null,
        now,
      });
      if (outcome === "void" || winnerId === userId) {
        await recordActivity(tx, {
          userId: parties.participantId,
          actorId: userId,
          type: "settlement_proposed",
          text: await proposedWords(tx, {
            title: bet.title,
            outcome,
            winnerId,
            proposerId: userId,
            respondBy: proposal.respondBy,
          }),
          betId,
        });
        return { kind: "proposed" as const, settlement: proposal };
      }
      const final = await finalise(tx, {
        bet,
        settlement: { ...proposal, participantApproved: true },
        parties,
        actorId: userId,
        resolution: "conceded",
        now,
      });
      return { kind: "settled" as const, settlement: final };
    },
    { durable: true, moneyOrMembership: true },
  );
  return result.kind === "settled"
    ? { ...result, bet: (await getBetView(betId))! }
    : result;
}
