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
  type Job,
  type Outcome,
  type Resolution,
  type Settlement,
} from "~/db/schema";
import { recordActivity } from "./activity.server";
import { displayNameSql } from "./display-name.server";
import { scheduleJob } from "./jobs.server";
import {
  BET_NOT_FOUND,
  canViewBet,
  effectiveStatus,
  getBetView,
  type BetView,
} from "./bet.server";
import { conflict, forbidden, invalid, notFound } from "~/utils/errors";
import { centsToDollars, formatCents, splitPayout } from "~/utils/money";
import { formatDateTime } from "~/utils/dates";
import { paymentDueMs, responseWindowMs } from "~/utils/windows.server";
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
    winnerIdSchema.optional(),
  ),
  outcome: z.enum(["winner", "void"], { error: BAD_OUTCOME }).optional(),
  settlementNotes: optionalText("Notes"),
});

export type ProposalInput = {
  outcome: Outcome;
  winnerId: number | null;
  notes: string | null;
};

const RejectionSchema = z.object({
  rejectionReason: optionalText("Reason"),
});

/**
 * `{winnerId, settlementNotes?}` or `{outcome: "void"}` from JSON or a form
 * (whose radio sends `winnerId=void` for the third choice): 400 with SPEC's
 * message.
 */
export function parseProposalInput(input: unknown): ProposalInput {
  const raw =
    input && typeof input === "object"
      ? { ...(input as Record<string, unknown>) }
      : input;
  if (raw && typeof raw === "object" && "winnerId" in raw) {
    const fields = raw as Record<string, unknown>;
    if (fields.winnerId === "void" && fields.outcome === undefined) {
      delete fields.winnerId;
      fields.outcome = "void";
    }
  }
  const parsed = ProposalSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    throw invalid(
      fieldErrors.winnerId
        ? NO_WINNER
        : fieldErrors.outcome
          ? BAD_OUTCOME
          : "Invalid input",
      {
        ...fieldErrors,
        ...(fieldErrors.winnerId ? { winnerId: [NO_WINNER] } : {}),
      },
    );
  }
  const { winnerId, outcome, settlementNotes } = parsed.data;
  if (outcome === "void") {
    if (winnerId !== undefined)
      throw invalid(VOID_WITH_WINNER, { winnerId: [VOID_WITH_WINNER] });
    return { outcome: "void", winnerId: null, notes: settlementNotes };
  }
  if (winnerId === undefined)
    throw invalid(NO_WINNER, { winnerId: [NO_WINNER] });
  return { outcome: "winner", winnerId, notes: settlementNotes };
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
      .select({ username: displayNameSql() })
      .from(users)
      .where(eq(users.id, userId))
      .get()?.username ?? "Someone"
  );
}

function assertWinner(parties: Parties, winnerId: number | null) {
  if (
    winnerId === null ||
    (winnerId !== parties.creatorId && winnerId !== parties.participantId)
  )
    throw invalid(NO_WINNER, { winnerId: [NO_WINNER] });
}

const otherSide = (parties: Parties, userId: number) =>
  userId === parties.creatorId ? parties.participantId : parties.creatorId;

function liveSettlement(tx: Tx | typeof db, betId: number) {
  return tx
    .select()
    .from(settlements)
    .where(eq(settlements.betId, betId))
    .get();
}

function assertSettleable(tx: Tx, bet: Bet) {
  const status = effectiveStatus(bet);
  if (status === "settled") throw conflict(ALREADY_SETTLED);
  if (status !== "active") throw conflict(NOT_ACTIVE);
  if (liveSettlement(tx, bet.id)) throw conflict(LIVE_PROPOSAL);
}

/** How many proposals a bet has had: numbers each proposal's jobs. */
function proposalNumber(tx: Tx, betId: number) {
  return (
    tx
      .select({ n: sql<number>`count(*)` })
      .from(betEvents)
      .where(
        and(
          eq(betEvents.betId, betId),
          eq(betEvents.type, "settlement_proposed"),
        ),
      )
      .get()?.n ?? 0
  );
}

/** What a proposal says, in a sentence's words. */
function proposalWords(
  tx: Tx,
  outcome: Outcome,
  winnerId: number | null,
  proposerId: number,
) {
  if (outcome === "void") return "calling it off (no winner)";
  return `${winnerId === proposerId ? "themself" : usernameOf(tx, winnerId!)} as the winner`;
}

function insertProposal(
  tx: Tx,
  bet: Bet,
  parties: Parties,
  {
    proposerId,
    outcome,
    winnerId,
    notes,
    now,
  }: {
    proposerId: number;
    outcome: Outcome;
    winnerId: number | null;
    notes: string | null;
    now: number;
  },
) {
  const loserId =
    outcome === "void"
      ? null
      : winnerId === parties.creatorId
        ? parties.participantId
        : parties.creatorId;
  const window = responseWindowMs();
  // A dispute with the referee has no timeout (ruling 23): the referee, or
  // the two sides agreeing, decides.
  const respondBy = bet.disputeReferredAt ? null : now + window;
  const number = proposalNumber(tx, bet.id) + 1;
  const split = outcome === "winner" ? splitPayout(bet.amountCents) : null;
  const settlement = tx
    .insert(settlements)
    .values({
      betId: bet.id,
      outcome,
      winnerId,
      loserId,
      proposedBy: proposerId,
      notes,
      creatorApproved: proposerId === parties.creatorId,
      participantApproved: proposerId === parties.participantId,
      proposedAt: new Date(now),
      respondBy: respondBy === null ? null : new Date(respondBy),
      // What the approve screen shows is what the API says (§6b).
      feeCents: split?.feeCents ?? null,
      netCents: split?.netCents ?? null,
      paymentStatus: "pending",
    })
    .returning()
    .get();
  tx.insert(betEvents)
    .values({
      betId: bet.id,
      actorId: proposerId,
      type: "settlement_proposed",
      data: { outcome, winnerId, loserId, notes },
    })
    .run();
  if (respondBy !== null) {
    const payload = { proposedAt: now };
    const tag = `${bet.id}:${number}`;
    scheduleJob(tx, {
      kind: "settlement_timeout",
      subjectId: bet.id,
      runAt: respondBy,
      key: `settlement_timeout:${tag}`,
      payload,
    });
    // Reminders when a third of the window has passed and when a twelfth
    // remains (24 h and 66 h of 72 h).
    scheduleJob(tx, {
      kind: "settlement_reminder",
      subjectId: bet.id,
      runAt: now + Math.round(window / 3),
      key: `settlement_reminder:${tag}:first`,
      payload,
    });
    scheduleJob(tx, {
      kind: "settlement_reminder",
      subjectId: bet.id,
      runAt: respondBy - Math.round(window / 12),
      key: `settlement_reminder:${tag}:last`,
      payload,
    });
  }
  return settlement;
}

/**
 * The one settle path (agreement, concession, silence, referee): the bet
 * is settled — or, for a void outcome, cancelled — once, with counts,
 * history, the payment's due date and its jobs, and both sides told.
 */
function finalise(
  tx: Tx,
  {
    bet,
    settlement,
    parties,
    actorId,
    resolution,
    now,
  }: {
    bet: Bet;
    settlement: Settlement;
    parties: Parties;
    actorId: number | null;
    resolution: Resolution;
    now: number;
  },
) {
  const at = new Date(now);
  const version = new Date(Math.max(now, bet.updatedAt.getTime() + 1));
  const voided = settlement.outcome === "void";
  const split = voided ? null : splitPayout(bet.amountCents);
  const dueAt = voided ? null : now + paymentDueMs();
  const updated = tx
    .update(bets)
    .set(
      voided
        ? {
            status: "cancelled",
            voidedAt: at,
            updatedAt: version,
            disputeReferredAt: null,
            disputeReferredBy: null,
          }
        : {
            status: "settled",
            winnerId: settlement.winnerId,
            settledAt: at,
            paymentDueAt: new Date(dueAt!),
            updatedAt: version,
            disputeReferredAt: null,
            disputeReferredBy: null,
          },
    )
    .where(and(eq(bets.id, bet.id), eq(bets.status, "active")))
    .run();
  if (updated.changes !== 1) throw conflict(ALREADY_SETTLED);
  const final = tx
    .update(settlements)
    .set({
      creatorApproved: true,
      participantApproved: true,
      settledAt: at,
      resolution,
      respondBy: null,
      feeCents: split?.feeCents ?? null,
      netCents: split?.netCents ?? null,
    })
    .where(
      and(eq(settlements.betId, bet.id), sql`${settlements.settledAt} IS NULL`),
    )
    .returning()
    .get();
  if (!final) throw conflict(ALREADY_SETTLED);
  if (!voided) {
    tx.update(users)
      .set({ winCount: sql`${users.winCount} + 1` })
      .where(eq(users.id, final.winnerId!))
      .run();
    tx.update(users)
      .set({ lossCount: sql`${users.lossCount} + 1` })
      .where(eq(users.id, final.loserId!))
      .run();
    scheduleJob(tx, {
      kind: "payment_due",
      subjectId: bet.id,
      runAt: now + Math.round(paymentDueMs() / 3),
      key: `payment_due:${bet.id}`,
    });
    scheduleJob(tx, {
      kind: "payment_overdue",
      subjectId: bet.id,
      runAt: dueAt!,
      key: `payment_overdue:${bet.id}`,
    });
  }
  tx.insert(betEvents)
    .values({
      betId: bet.id,
      actorId,
      type: voided ? "voided" : "settled",
      data: {
        outcome: final.outcome,
        winnerId: final.winnerId,
        resolution,
        feeCents: final.feeCents,
        netCents: final.netCents,
      },
    })
    .run();
  const how: Record<Resolution, string> = {
    agreed: "both sides agreed",
    conceded: "conceded",
    timeout: "no answer in time",
    referee: "the referee ruled",
  };
  for (const userId of [parties.creatorId, parties.participantId]) {
    const result = voided
      ? `"${bet.title}" is called off (${how[resolution]}): no winner, no payment`
      : final.winnerId === userId
        ? `You won "${bet.title}" (${how[resolution]}); ${usernameOf(tx, final.loserId!)} owes you ${formatCents(bet.amountCents)}`
        : `${usernameOf(tx, final.winnerId!)} won "${bet.title}" (${how[resolution]}): please pay ${formatCents(bet.amountCents)} by ${formatDateTime(dueAt!)} UTC`;
    recordActivity(tx, {
      userId,
      actorId,
      type: resolution === "referee" ? "referee_ruled" : "bet_settled",
      message: result,
      betId: bet.id,
    });
  }
  return final;
}

// --- Propose, approve, reject, settle -----------------------------------------

/** Either party of an active bet with no live proposal names a winner or void. */
export function proposeSettlement({
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
}): Settlement {
  return immediate((tx) => {
    const { bet, parties } = loadBet(tx, betId, userId);
    if (!parties && bet.creatorId === userId) throw conflict(NOT_ACTIVE);
    if (!isParty(parties, userId)) throw forbidden(NOT_A_PARTY);
    assertSettleable(tx, bet);
    if (outcome === "winner") assertWinner(parties!, winnerId);
    else if (winnerId !== null) throw invalid(VOID_WITH_WINNER);
    const settlement = insertProposal(tx, bet, parties!, {
      proposerId: userId,
      outcome,
      winnerId,
      notes,
      now,
    });
    recordActivity(tx, {
      userId: otherSide(parties!, userId),
      actorId: userId,
      type: "settlement_proposed",
      message: `${usernameOf(tx, userId)} proposed ${proposalWords(tx, outcome, winnerId, userId)} of "${bet.title}"${settlement.respondBy ? `: approved automatically ${formatDateTime(settlement.respondBy)} UTC unless you reject it` : ""}`,
      betId,
    });
    return settlement;
  });
}

/** The other side approves; with both sides in, the bet is settled. */
export function approveSettlement({
  betId,
  userId,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  now?: number;
}): { bet: BetView; settlement: Settlement } {
  const settlement = immediate(
    (tx) => {
      const { bet, parties } = loadBet(tx, betId, userId);
      const live = liveSettlement(tx, betId);
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
      const current = liveSettlement(tx, betId)!;
      if (!(current.creatorApproved && current.participantApproved)) {
        return current;
      }
      return finalise(tx, {
        bet,
        settlement: current,
        parties: parties!,
        actorId: userId,
        resolution: "agreed",
        now,
      });
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
    const live = liveSettlement(tx, betId);
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
          outcome: live.outcome,
          winnerId: live.winnerId,
          proposedBy: live.proposedBy,
          notes: live.notes,
          reason,
        },
      })
      .run();
    recordActivity(tx, {
      userId: otherSide(parties!, userId),
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
 * concession and settles at once; naming themself, or calling it off, is
 * only a proposal.
 */
export function settleBet({
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
}): DirectSettleResult {
  const result = immediate(
    (tx) => {
      const { bet, parties } = loadBet(tx, betId, userId);
      if (bet.creatorId !== userId) throw forbidden(NOT_CREATOR);
      assertSettleable(tx, bet);
      if (!parties) throw conflict(NOT_ACTIVE);
      if (outcome === "winner") assertWinner(parties, winnerId);
      else if (winnerId !== null) throw invalid(VOID_WITH_WINNER);
      const proposal = insertProposal(tx, bet, parties, {
        proposerId: userId,
        outcome,
        winnerId,
        notes: null,
        now,
      });
      if (outcome === "void" || winnerId === userId) {
        recordActivity(tx, {
          userId: parties.participantId,
          actorId: userId,
          type: "settlement_proposed",
          message: `${usernameOf(tx, userId)} proposed ${proposalWords(tx, outcome, winnerId, userId)} of "${bet.title}"${proposal.respondBy ? `: approved automatically ${formatDateTime(proposal.respondBy)} UTC unless you reject it` : ""}`,
          betId,
        });
        return { kind: "proposed" as const, settlement: proposal };
      }
      const final = finalise(tx, {
        bet,
        settlement: { ...proposal, participantApproved: true },
        parties,
        actorId: userId,
        resolution: "conceded",
        now,
      });
      return { kind: "settled" as const, settlement: final };
    },
    { durable: true },
  );
  return result.kind === "settled"
    ? { ...result, bet: getBetView(betId)! }
    : result;
}

// --- The sweep's part (ruling 21) -----------------------------------------------

/** The job still concerns the proposal that is live now, unanswered. */
function liveProposalFor(tx: Tx, job: Job) {
  const live = liveSettlement(tx, job.subjectId);
  const proposedAt = Number(job.payload?.proposedAt);
  if (!live || live.settledAt || live.proposedAt.getTime() !== proposedAt)
    return null;
  return live;
}

/**
 * At `respondBy` the silent side is taken to approve: the same settle path
 * as an approval, `resolution: "timeout"`. A proposal already answered,
 * withdrawn or with the referee is left alone.
 */
export function timeOutProposal(tx: Tx, job: Job, now: number) {
  const live = liveProposalFor(tx, job);
  if (!live || live.respondBy === null || live.respondBy.getTime() > now)
    return;
  const bet = tx.select().from(bets).where(eq(bets.id, job.subjectId)).get();
  const parties = partiesOf(tx, job.subjectId);
  if (!bet || bet.status !== "active" || !parties || bet.disputeReferredAt)
    return;
  const silent = live.creatorApproved
    ? parties.participantId
    : parties.creatorId;
  tx.insert(betEvents)
    .values({
      betId: bet.id,
      actorId: null,
      type: "settlement_timed_out",
      data: { silentId: silent },
    })
    .run();
  finalise(tx, {
    bet,
    settlement: live,
    parties,
    actorId: null,
    resolution: "timeout",
    now,
  });
}

/** Reminds the side that has not answered (a third in, a twelfth left). */
export function remindProposal(tx: Tx, job: Job) {
  const live = liveProposalFor(tx, job);
  if (!live || live.respondBy === null) return;
  const bet = tx.select().from(bets).where(eq(bets.id, job.subjectId)).get();
  const parties = partiesOf(tx, job.subjectId);
  if (!bet || bet.status !== "active" || !parties) return;
  const silent = live.creatorApproved
    ? parties.participantId
    : parties.creatorId;
  recordActivity(tx, {
    userId: silent,
    actorId: live.proposedBy,
    type: "settlement_reminder",
    message: `Reminder: ${usernameOf(tx, live.proposedBy)} proposed ${proposalWords(tx, live.outcome, live.winnerId, live.proposedBy)} of "${bet.title}". It is approved automatically ${formatDateTime(live.respondBy)} UTC unless you reject it.`,
    betId: bet.id,
  });
}

// --- The referee (ruling 23) ------------------------------------------------------

function hasRejection(tx: Tx, betId: number) {
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

/** What stops `userId` from asking the referee now, or null. */
export function referralBlock(
  bet: Bet,
  userId: number,
  tx: Tx | typeof db = db,
): { status: 403 | 409; message: string } | null {
  const parties = partiesOf(tx, bet.id);
  if (!isParty(parties, userId) && bet.creatorId !== userId)
    return { status: 403, message: NOT_A_PARTY_REFER };
  if (!bet.refereeId) return { status: 409, message: NO_REFEREE };
  if (effectiveStatus(bet) !== "active")
    return {
      status: 409,
      message: bet.status === "settled" ? ALREADY_SETTLED : NOT_ACTIVE,
    };
  if (bet.disputeReferredAt) return { status: 409, message: ALREADY_REFERRED };
  if (liveSettlement(tx, bet.id))
    return { status: 409, message: REFER_LIVE_PROPOSAL };
  if (!hasRejection(tx as Tx, bet.id))
    return { status: 409, message: REFER_NOTHING_REJECTED };
  return null;
}

/** After a rejection either party hands the dispute to the referee. */
export function referDispute({
  betId,
  userId,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  now?: number;
}): BetView {
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
      if (bet.refereeId !== userId) throw forbidden(NOT_REFEREE);
      const status = effectiveStatus(bet);
      if (status === "settled") throw conflict(ALREADY_SETTLED);
      if (status !== "active") throw conflict(NOT_ACTIVE);
      if (!bet.disputeReferredAt) throw conflict(NOT_REFERRED);
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
      }
      const loserId =
        outcome === "void"
          ? null
          : winnerId === parties.creatorId
            ? parties.participantId
            : parties.creatorId;
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
  /** Null for a proposal to call the bet off. */
  winnerName: string | null;
  loserName: string | null;
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
    id === creator.id
      ? creator.username
      : id === participant.id
        ? participant.username
        : usernameOf(db, id); // the referee, who ruled
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
    winnerName:
      settlement.winnerId === null ? null : nameOf(settlement.winnerId),
    loserName: settlement.loserId === null ? null : nameOf(settlement.loserId),
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
    outcome: s.outcome,
    proposedAt: s.proposedAt.toISOString(),
    respondBy: s.respondBy ? s.respondBy.toISOString() : null,
    resolution: s.resolution,
    settledAt: s.settledAt ? s.settledAt.toISOString() : null,
    feeAmount: s.feeCents === null ? null : centsToDollars(s.feeCents),
    netAmount: s.netCents === null ? null : centsToDollars(s.netCents),
    paymentStatus: s.paymentStatus,
  };
}
