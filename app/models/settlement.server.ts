// Settlements: two people agree on a winner (ruling 8: nobody wins by their
// own word). One live settlement per bet, keyed by the bet's id (ruling 7).
// Every change runs in one BEGIN IMMEDIATE transaction with conditional
// updates, so simultaneous approvals settle a bet once.
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { db, immediate, type Tx } from "~/db/client.server";
import {
  betEvents,
  betParticipants,
  bets,
  settlements,
  users,
  type Bet,
  type Settlement,
} from "~/db/schema";
import { recordActivity } from "./activity.server";
import {
  BET_NOT_FOUND,
  canViewBet,
  effectiveStatus,
  getBetView,
  type BetView,
} from "./bet.server";
import { conflict, forbidden, invalid, notFound } from "~/utils/errors";
import { centsToDollars, splitPayout } from "~/utils/money";
import { fieldErrorsOf, maxChars } from "~/utils/validation";
import { NOTES_MAX, SETTLEMENT_NOT_FOUND } from "~/utils/settlement-text";

export { NOTES_MAX, SETTLEMENT_NOT_FOUND };

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

// --- Input ------------------------------------------------------------------

const optionalText = (field: string) =>
  z
    .string({ error: `${field} must be text.` })
    .nullish()
    .transform((v) => (v ?? "").trim())
    .superRefine(
      maxChars(NOTES_MAX, `${field} must be at most ${NOTES_MAX} characters.`, {
        multiline: true,
      }),
    )
    .transform((v) => (v === "" ? null : v));

const winnerIdSchema = z.coerce
  .number({ error: NO_WINNER })
  .int(NO_WINNER)
  .positive(NO_WINNER);

const ProposalSchema = z.object({
  winnerId: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    winnerIdSchema,
  ),
  settlementNotes: optionalText("Notes"),
});

const RejectionSchema = z.object({
  rejectionReason: optionalText("Reason"),
});

/** `{winnerId, settlementNotes?}` from JSON or a form: 400 with SPEC's message. */
export function parseProposalInput(input: unknown) {
  const parsed = ProposalSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    throw invalid(fieldErrors.winnerId ? NO_WINNER : "Invalid input", {
      ...fieldErrors,
      ...(fieldErrors.winnerId ? { winnerId: [NO_WINNER] } : {}),
    });
  }
  return { winnerId: parsed.data.winnerId, notes: parsed.data.settlementNotes };
}

export function parseRejectionInput(input: unknown) {
  const parsed = RejectionSchema.safeParse(input);
  if (!parsed.success)
    throw invalid("Invalid input", fieldErrorsOf(parsed.error));
  return { reason: parsed.data.rejectionReason };
}

// --- Shared checks -----------------------------------------------------------

type Parties = { creatorId: number; participantId: number };

function partiesOf(tx: Tx | typeof db, betId: number): Parties | null {
  const rows = tx
    .select({ userId: betParticipants.userId, seat: betParticipants.seat })
    .from(betParticipants)
    .where(eq(betParticipants.betId, betId))
    .all();
  const creator = rows.find((r) => r.seat === 1);
  const participant = rows.find((r) => r.seat === 2);
  return creator && participant
    ? { creatorId: creator.userId, participantId: participant.userId }
    : null;
}

const isParty = (p: Parties | null, userId: number) =>
  p !== null && (p.creatorId === userId || p.participantId === userId);

/** The bet, visible to `userId` (else 404), and its two parties. */
function loadBet(tx: Tx, betId: number, userId: number) {
  const bet = tx.select().from(bets).where(eq(bets.id, betId)).get();
  if (!bet || !canViewBet(bet, userId)) throw notFound(BET_NOT_FOUND);
  return { bet, parties: partiesOf(tx, betId) };
}

function usernameOf(tx: Tx | typeof db, userId: number) {
  return (
    tx
      .select({ username: users.username })
      .from(users)
      .where(eq(users.id, userId))
      .get()?.username ?? "Someone"
  );
}

function assertWinner(parties: Parties, winnerId: number) {
  if (winnerId !== parties.creatorId && winnerId !== parties.participantId)
    throw invalid(NO_WINNER, { winnerId: [NO_WINNER] });
}

function assertSettleable(tx: Tx, bet: Bet) {
  const status = effectiveStatus(bet);
  if (status === "settled") throw conflict(ALREADY_SETTLED);
  if (status !== "active") throw conflict(NOT_ACTIVE);
  const live = tx
    .select({ betId: settlements.betId })
    .from(settlements)
    .where(eq(settlements.betId, bet.id))
    .get();
  if (live) throw conflict(LIVE_PROPOSAL);
}

function insertProposal(
  tx: Tx,
  bet: Bet,
  parties: Parties,
  {
    proposerId,
    winnerId,
    notes,
  }: { proposerId: number; winnerId: number; notes: string | null },
) {
  const loserId =
    winnerId === parties.creatorId ? parties.participantId : parties.creatorId;
  const settlement = tx
    .insert(settlements)
    .values({
      betId: bet.id,
      winnerId,
      loserId,
      proposedBy: proposerId,
      notes,
      creatorApproved: proposerId === parties.creatorId,
      participantApproved: proposerId === parties.participantId,
      paymentStatus: "pending",
    })
    .returning()
    .get();
  tx.insert(betEvents)
    .values({
      betId: bet.id,
      actorId: proposerId,
      type: "settlement_proposed",
      data: { winnerId, loserId, notes },
    })
    .run();
  return settlement;
}

/** Both sides approved: the bet is settled, counts move, once. */
function finalise(tx: Tx, bet: Bet, settlement: Settlement, actorId: number) {
  const now = new Date();
  const { feeCents, netCents } = splitPayout(bet.amountCents);
  const updated = tx
    .update(bets)
    .set({
      status: "settled",
      winnerId: settlement.winnerId,
      settledAt: now,
      updatedAt: new Date(Math.max(now.getTime(), bet.updatedAt.getTime() + 1)),
    })
    .where(and(eq(bets.id, bet.id), eq(bets.status, "active")))
    .run();
  if (updated.changes !== 1) throw conflict(ALREADY_SETTLED);
  const final = tx
    .update(settlements)
    .set({
      creatorApproved: true,
      participantApproved: true,
      settledAt: now,
      feeCents,
      netCents,
    })
    .where(
      and(eq(settlements.betId, bet.id), sql`${settlements.settledAt} IS NULL`),
    )
    .returning()
    .get();
  if (!final) throw conflict(ALREADY_SETTLED);
  tx.update(users)
    .set({ winCount: sql`${users.winCount} + 1` })
    .where(eq(users.id, settlement.winnerId))
    .run();
  tx.update(users)
    .set({ lossCount: sql`${users.lossCount} + 1` })
    .where(eq(users.id, settlement.loserId))
    .run();
  tx.insert(betEvents)
    .values({
      betId: bet.id,
      actorId,
      type: "settled",
      data: { winnerId: settlement.winnerId, feeCents, netCents },
    })
    .run();
  return final;
}

// --- Propose, approve, reject, settle -----------------------------------------

/** Either party of an active bet with no live proposal names a winner. */
export function proposeSettlement({
  betId,
  userId,
  winnerId,
  notes = null,
}: {
  betId: number;
  userId: number;
  winnerId: number;
  notes?: string | null;
}): Settlement {
  return immediate((tx) => {
    const { bet, parties } = loadBet(tx, betId, userId);
    if (!parties && bet.creatorId === userId) throw conflict(NOT_ACTIVE);
    if (!isParty(parties, userId)) throw forbidden(NOT_A_PARTY);
    assertSettleable(tx, bet);
    assertWinner(parties!, winnerId);
    const settlement = insertProposal(tx, bet, parties!, {
      proposerId: userId,
      winnerId,
      notes,
    });
    const other =
      userId === parties!.creatorId
        ? parties!.participantId
        : parties!.creatorId;
    const winnerName =
      winnerId === userId ? "themself" : usernameOf(tx, winnerId);
    recordActivity(tx, {
      userId: other,
      actorId: userId,
      type: "settlement_proposed",
      message: `${usernameOf(tx, userId)} proposed ${winnerName} as the winner of "${bet.title}"`,
      betId,
    });
    return settlement;
  });
}

/** The other side approves; with both sides in, the bet is settled. */
export function approveSettlement({
  betId,
  userId,
}: {
  betId: number;
  userId: number;
}): { bet: BetView; settlement: Settlement } {
  const settlement = immediate(
    (tx) => {
      const { bet, parties } = loadBet(tx, betId, userId);
      const live = tx
        .select()
        .from(settlements)
        .where(eq(settlements.betId, betId))
        .get();
      if (!isParty(parties, userId)) {
        if (!live) throw notFound(SETTLEMENT_NOT_FOUND);
        throw forbidden("Only the two people in this bet can approve it.");
      }
      if (!live) throw notFound(SETTLEMENT_NOT_FOUND);
      if (live.settledAt) throw conflict(ALREADY_SETTLED);
      const side =
        userId === parties!.creatorId
          ? "creatorApproved"
          : "participantApproved";
      if (live[side]) throw conflict(ALREADY_APPROVED);
      const changed = tx
        .update(settlements)
        .set({ [side]: true })
        .where(
          and(
            eq(settlements.betId, betId),
            eq(settlements[side], false),
            sql`${settlements.settledAt} IS NULL`,
          ),
        )
        .run();
      if (changed.changes !== 1) throw conflict(ALREADY_APPROVED);
      tx.insert(betEvents)
        .values({ betId, actorId: userId, type: "settlement_approved" })
        .run();
      const other =
        userId === parties!.creatorId
          ? parties!.participantId
          : parties!.creatorId;
      const current = tx
        .select()
        .from(settlements)
        .where(eq(settlements.betId, betId))
        .get()!;
      if (!(current.creatorApproved && current.participantApproved)) {
        return current;
      }
      const final = finalise(tx, bet, current, userId);
      recordActivity(tx, {
        userId: other,
        actorId: userId,
        type: "settlement_approved",
        message: `${usernameOf(tx, userId)} approved the settlement of "${bet.title}": ${usernameOf(tx, final.winnerId)} won`,
        betId,
      });
      return final;
    },
    { durable: true },
  );
  return { bet: getBetView(betId)!, settlement };
}

/** Either party rejects (the proposer withdrawing); the history keeps it. */
export function rejectSettlement({
  betId,
  userId,
  reason = null,
}: {
  betId: number;
  userId: number;
  reason?: string | null;
}) {
  immediate((tx) => {
    const { bet, parties } = loadBet(tx, betId, userId);
    const live = tx
      .select()
      .from(settlements)
      .where(eq(settlements.betId, betId))
      .get();
    if (!live) throw notFound(SETTLEMENT_NOT_FOUND);
    if (!isParty(parties, userId))
      throw forbidden("Only the two people in this bet can reject it.");
    if (live.settledAt) throw conflict(ALREADY_SETTLED);
    const removed = tx
      .delete(settlements)
      .where(
        and(
          eq(settlements.betId, betId),
          sql`${settlements.settledAt} IS NULL`,
        ),
      )
      .run();
    if (removed.changes !== 1) throw conflict(ALREADY_SETTLED);
    tx.insert(betEvents)
      .values({
        betId,
        actorId: userId,
        type: "settlement_rejected",
        data: {
          winnerId: live.winnerId,
          proposedBy: live.proposedBy,
          notes: live.notes,
          reason,
        },
      })
      .run();
    const other =
      userId === parties!.creatorId
        ? parties!.participantId
        : parties!.creatorId;
    recordActivity(tx, {
      userId: other,
      actorId: userId,
      type: "settlement_rejected",
      message:
        live.proposedBy === userId
          ? `${usernameOf(tx, userId)} withdrew the settlement proposal for "${bet.title}"`
          : `${usernameOf(tx, userId)} rejected the settlement proposal for "${bet.title}"${reason ? `: ${reason}` : ""}`,
      betId,
    });
  });
}

export type DirectSettleResult =
  | { kind: "settled"; bet: BetView; settlement: Settlement }
  | { kind: "proposed"; settlement: Settlement };

/**
 * The creator settles directly (ruling 8): naming the other participant is a
 * concession and settles at once; naming themself is only a proposal.
 */
export function settleBet({
  betId,
  userId,
  winnerId,
}: {
  betId: number;
  userId: number;
  winnerId: number;
}): DirectSettleResult {
  const result = immediate(
    (tx) => {
      const { bet, parties } = loadBet(tx, betId, userId);
      if (bet.creatorId !== userId) throw forbidden(NOT_CREATOR);
      assertSettleable(tx, bet);
      if (!parties) throw conflict(NOT_ACTIVE);
      assertWinner(parties, winnerId);
      const proposal = insertProposal(tx, bet, parties, {
        proposerId: userId,
        winnerId,
        notes: null,
      });
      if (winnerId === userId) {
        recordActivity(tx, {
          userId: parties.participantId,
          actorId: userId,
          type: "settlement_proposed",
          message: `${usernameOf(tx, userId)} proposed themself as the winner of "${bet.title}"`,
          betId,
        });
        return { kind: "proposed" as const, settlement: proposal };
      }
      tx.update(settlements)
        .set({ participantApproved: true })
        .where(eq(settlements.betId, betId))
        .run();
      const final = finalise(
        tx,
        bet,
        { ...proposal, participantApproved: true },
        userId,
      );
      recordActivity(tx, {
        userId: winnerId,
        actorId: userId,
        type: "bet_settled",
        message: `${usernameOf(tx, userId)} conceded "${bet.title}": you won`,
        betId,
      });
      return { kind: "settled" as const, settlement: final };
    },
    { durable: true },
  );
  return result.kind === "settled"
    ? { ...result, bet: getBetView(betId)! }
    : result;
}

// --- Reading ------------------------------------------------------------------

/** The live settlement, for anyone who may see the bet; else 404. */
export function getSettlement({
  betId,
  userId,
}: {
  betId: number;
  userId: number;
}): Settlement {
  const bet = db.select().from(bets).where(eq(bets.id, betId)).get();
  if (!bet || !canViewBet(bet, userId)) throw notFound(SETTLEMENT_NOT_FOUND);
  const settlement = db
    .select()
    .from(settlements)
    .where(eq(settlements.betId, betId))
    .get();
  if (!settlement) throw notFound(SETTLEMENT_NOT_FOUND);
  return settlement;
}

export type SettlementView = {
  settlement: Settlement;
  bet: BetView;
  creator: { id: number; username: string };
  participant: { id: number; username: string };
  winnerName: string;
  loserName: string;
  proposerName: string;
  /** The viewer's own role, or null for an onlooker. */
  viewerSide: "creator" | "participant" | null;
  viewerHasApproved: boolean;
  canRespond: boolean;
  feeCents: number;
  netCents: number;
};

/** What the settlement card and the approve screen show, or null if none is live. */
export function getSettlementView({
  betId,
  userId,
}: {
  betId: number;
  userId: number;
}): SettlementView | null {
  const bet = getBetView(betId);
  if (!bet || !canViewBet(bet, userId)) return null;
  const settlement = db
    .select()
    .from(settlements)
    .where(eq(settlements.betId, betId))
    .get();
  if (!settlement) return null;
  const creator = bet.participants.find((p) => p.seat === 1);
  const participant = bet.participants.find((p) => p.seat === 2);
  if (!creator || !participant) return null;
  const nameOf = (id: number) =>
    id === creator.id ? creator.username : participant.username;
  const viewerSide =
    userId === creator.id
      ? "creator"
      : userId === participant.id
        ? "participant"
        : null;
  const viewerHasApproved =
    viewerSide === "creator"
      ? settlement.creatorApproved
      : viewerSide === "participant"
        ? settlement.participantApproved
        : false;
  const split = splitPayout(bet.amountCents);
  return {
    settlement,
    bet,
    creator: { id: creator.id, username: creator.username },
    participant: { id: participant.id, username: participant.username },
    winnerName: nameOf(settlement.winnerId),
    loserName: nameOf(settlement.loserId),
    proposerName: nameOf(settlement.proposedBy),
    viewerSide,
    viewerHasApproved,
    canRespond:
      viewerSide !== null &&
      !viewerHasApproved &&
      settlement.settledAt === null &&
      settlement.paymentStatus !== "completed",
    feeCents: settlement.feeCents ?? split.feeCents,
    netCents: settlement.netCents ?? split.netCents,
  };
}

/** Rejected proposals of a bet, oldest first (its history, ruling 7). */
export function listSettlementHistory(betId: number) {
  return db
    .select()
    .from(betEvents)
    .where(
      and(eq(betEvents.betId, betId), sql`${betEvents.type} LIKE 'settle%'`),
    )
    .orderBy(betEvents.id)
    .all();
}

export function toSettlementJson(s: Settlement) {
  return {
    id: s.betId,
    betId: s.betId,
    winnerId: s.winnerId,
    loserId: s.loserId,
    proposedBy: s.proposedBy,
    settlementNotes: s.notes,
    creatorApproved: s.creatorApproved,
    participantApproved: s.participantApproved,
    proposedAt: s.proposedAt.toISOString(),
    settledAt: s.settledAt ? s.settledAt.toISOString() : null,
    feeAmount: s.feeCents === null ? null : centsToDollars(s.feeCents),
    netAmount: s.netCents === null ? null : centsToDollars(s.netCents),
    paymentStatus: s.paymentStatus,
  };
}
