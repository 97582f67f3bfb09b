// Settlements, the rules they share: the product's messages (defined once, here)
// and the checks every settlement command makes of a bet and its two parties.
// The input a proposal or a rejection may carry: ./settlement-input.server.ts.
import { eq } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db } from "~/db/transactions.server";
import {
  betParticipants,
  bets,
  settlements,
  type Bet,
  type Outcome,
  type Settlement,
} from "~/db/schema";
import { BET_NOT_FOUND } from "~/domain/bet";
import { canViewBet, effectiveStatus } from "../bets/bet-access.server";
import { invalid, notFound, type Refusal } from "~/utils/errors";
import type { BetStatus } from "~/domain/bet";
import { SETTLEMENT_NOT_FOUND } from "~/domain/settlement-text";

export const NO_WINNER_TITLE = "No winner selected";
export const NO_WINNER = "Please select a winner to settle the bet.";
export const NOT_CREATOR = "Only the bet creator can settle this bet";
export const NOT_A_PARTY = "Only the two people in this bet can settle it.";
export const NOT_ACTIVE =
  "Only an active bet with two participants can be settled.";
export const ALREADY_SETTLED = "This bet has already been settled.";
export const LIVE_PROPOSAL =
  "A settlement has already been proposed for this bet.";
export const ALREADY_APPROVED = "You have already approved this settlement.";
export const WINDOW_CLOSED = "The answer window has closed.";
export const VOID_WITH_WINNER =
  "A proposal to call the bet off cannot name a winner.";
export const BAD_OUTCOME = 'Outcome must be "winner" or "void".';
export const NOT_REFEREE = "Only the referee can rule on this bet.";
export const NOT_A_PARTY_REFER =
  "Only the two people in this bet can ask the referee.";
export const NO_REFEREE = "This bet has no referee.";
export const REFER_LIVE_PROPOSAL =
  "A settlement proposal is waiting for an answer: approve or reject it first.";
export const REFER_NOTHING_REJECTED =
  "You can ask the referee only after a proposal was rejected.";
export const ALREADY_REFERRED = "This dispute is already with the referee.";
export const NOT_REFERRED =
  "Nobody has asked the referee to rule on this bet yet.";
export const DECIDED = "This bet has already been decided.";
export const NOT_A_PARTY_APPROVE =
  "Only the two people in this bet can approve it.";
export const NOT_A_PARTY_REJECT =
  "Only the two people in this bet can reject it.";

// --- Shared checks -----------------------------------------------------------

export type Parties = { creatorId: number; participantId: number };

export async function partiesOf(
  tx: Tx | typeof db,
  betId: number,
): Promise<Parties | null> {
  const rows = await tx
    .select({ userId: betParticipants.userId, seat: betParticipants.seat })
    .from(betParticipants)
    .where(eq(betParticipants.betId, betId));
  const creator = rows.find((r) => r.seat === 1);
  const participant = rows.find((r) => r.seat === 2);
  return creator && participant
    ? { creatorId: creator.userId, participantId: participant.userId }
    : null;
}

/** The two seated parties of a bet as a page already read it, or null. */
export function partiesOfView(bet: {
  participants: { id: number; seat: number }[];
}): Parties | null {
  const creator = bet.participants.find((p) => p.seat === 1);
  const participant = bet.participants.find((p) => p.seat === 2);
  return creator && participant
    ? { creatorId: creator.id, participantId: participant.id }
    : null;
}

export const isParty = (p: Parties | null, userId: number) =>
  p !== null && (p.creatorId === userId || p.participantId === userId);

/** The bet, visible to `userId` (else 404), and its two parties. */
export async function loadBet(tx: Tx, betId: number, userId: number) {
  const bet = (
    await tx.select().from(bets).where(eq(bets.id, betId)).limit(1)
  )[0];
  if (!bet || !(await canViewBet(bet, userId))) throw notFound(BET_NOT_FOUND);
  return { bet, parties: await partiesOf(tx, betId) };
}

export function assertWinner(parties: Parties, winnerId: number | null) {
  if (
    winnerId === null ||
    (winnerId !== parties.creatorId && winnerId !== parties.participantId)
  )
    throw invalid(NO_WINNER, { winnerId: [NO_WINNER] });
}

/** Who pays under this outcome: the side that is not the winner; none for a void bet. */
export function loserOf(
  parties: Parties,
  outcome: Outcome,
  winnerId: number | null,
): number | null {
  if (outcome === "void") return null;
  return winnerId === parties.creatorId
    ? parties.participantId
    : parties.creatorId;
}

export const otherSide = (parties: Parties, userId: number) =>
  userId === parties.creatorId ? parties.participantId : parties.creatorId;

export async function liveSettlement(tx: Tx | typeof db, betId: number) {
  return (
    await tx
      .select()
      .from(settlements)
      .where(eq(settlements.betId, betId))
      .limit(1)
  )[0];
}

/** What the settle policies need to know of a bet, as a page or a guard reads it. */
export type SettleFacts = {
  creatorId: number;
  /** The effective status (a pending bet past its deadline reads cancelled). */
  status: BetStatus;
  /** Everyone seated in the bet (the creator is seat 1). */
  partyIds: number[];
  hasLiveProposal: boolean;
};

function settleableRefusal(bet: SettleFacts): Refusal | null {
  if (bet.status === "settled")
    return { status: 409, message: ALREADY_SETTLED };
  if (bet.status !== "active") return { status: 409, message: NOT_ACTIVE };
  if (bet.hasLiveProposal) return { status: 409, message: LIVE_PROPOSAL };
  return null;
}

/** Why `userId` may not propose a settlement now (either party, docs/product-rules.md#settlement), or null. */
export function proposeRefusal(
  bet: SettleFacts,
  userId: number,
): Refusal | null {
  if (!bet.partyIds.includes(userId))
    return { status: 403, message: NOT_A_PARTY };
  return settleableRefusal(bet);
}

/** Why `userId` may not settle directly now (the creator only, docs/product-rules.md#settlement), or null. */
export function settleRefusal(
  bet: SettleFacts,
  userId: number,
): Refusal | null {
  if (bet.creatorId !== userId) return { status: 403, message: NOT_CREATOR };
  return settleableRefusal(bet);
}

/** What the approve and reject policies need to know of the live proposal. */
export type ResponseFacts = {
  /** The two seated parties' ids (empty while the bet has fewer than two). */
  partyIds: number[];
  creatorId: number;
  live: {
    settled: boolean;
    creatorApproved: boolean;
    participantApproved: boolean;
  } | null;
};

/** Why `userId` may not approve the live proposal now, or null. */
export function approveRefusal(
  facts: ResponseFacts,
  userId: number,
): Refusal | null {
  if (!facts.partyIds.includes(userId))
    return facts.live
      ? { status: 403, message: NOT_A_PARTY_APPROVE }
      : { status: 404, message: SETTLEMENT_NOT_FOUND };
  if (!facts.live) return { status: 404, message: SETTLEMENT_NOT_FOUND };
  if (facts.live.settled) return { status: 409, message: ALREADY_SETTLED };
  const approved =
    userId === facts.creatorId
      ? facts.live.creatorApproved
      : facts.live.participantApproved;
  if (approved) return { status: 409, message: ALREADY_APPROVED };
  return null;
}

/** Why `userId` may not reject (or withdraw) the live proposal now, or null. */
export function rejectRefusal(
  facts: ResponseFacts,
  userId: number,
): Refusal | null {
  if (!facts.live) return { status: 404, message: SETTLEMENT_NOT_FOUND };
  if (!facts.partyIds.includes(userId))
    return { status: 403, message: NOT_A_PARTY_REJECT };
  if (facts.live.settled) return { status: 409, message: ALREADY_SETTLED };
  return null;
}

export function responseFactsOf(
  bet: { creatorId: number },
  parties: Parties | null,
  live: Settlement | undefined | null,
): ResponseFacts {
  return {
    creatorId: bet.creatorId,
    partyIds: parties ? [parties.creatorId, parties.participantId] : [],
    live: live
      ? {
          settled: live.settledAt !== null,
          creatorApproved: live.creatorApproved,
          participantApproved: live.participantApproved,
        }
      : null,
  };
}

/** What the referee's policy needs to know of a bet. */
export type RuleFacts = {
  refereeId: number | null;
  /** The effective status. */
  status: BetStatus;
  referred: boolean;
};

/**
 * Why `userId` may not rule on the bet now (the referee, once referred,
 * docs/product-rules.md#referee), or null. The referee's screen words a decided bet and a
 * pending one its own way (`shown`).
 */
export function ruleRefusal(facts: RuleFacts, userId: number): Refusal | null {
  if (facts.refereeId !== userId) return { status: 403, message: NOT_REFEREE };
  if (facts.status === "settled")
    return { status: 409, message: ALREADY_SETTLED, shown: DECIDED };
  if (facts.status !== "active")
    return {
      status: 409,
      message: NOT_ACTIVE,
      shown: facts.status === "cancelled" ? DECIDED : NOT_REFERRED,
    };
  if (!facts.referred) return { status: 409, message: NOT_REFERRED };
  return null;
}

/** The facts, inside a transaction, for the guards. */
export async function settleFactsOf(
  tx: Tx,
  bet: Bet,
  parties: Parties | null,
): Promise<SettleFacts> {
  return {
    creatorId: bet.creatorId,
    status: effectiveStatus(bet),
    partyIds: parties
      ? [parties.creatorId, parties.participantId]
      : [bet.creatorId],
    hasLiveProposal: (await liveSettlement(tx, bet.id)) !== undefined,
  };
}
