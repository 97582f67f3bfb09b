// Settlements, the two writes every path ends in: a proposal (with its
// timeout and reminder jobs) and the one settle path (docs/product-rules.md#settlement), so an
// agreement, a concession, a silence and a referee's ruling settle alike.
import type { Words } from "~/messaging/activity-text.server";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { changedRows } from "~/db/dialect.server";
import {
  betEvents,
  bets,
  settlements,
  users,
  type Bet,
  type Outcome,
  type Resolution,
  type Settlement,
} from "~/db/schema";
import { recordActivity } from "../social/activity.server";
import { scheduleJob } from "../jobs/jobs.server";
import { conflict } from "~/utils/errors";
import { TooManyRequestsError } from "~/utils/rate-limit.server";
import { splitPayout } from "~/utils/money";
import { paymentDueMs, responseWindowMs } from "../bets/windows.server";
import {
  ALREADY_SETTLED,
  loserOf,
  type Parties,
} from "./settlement-rules.server";
import { nameOf } from "../accounts/display-name.server";
import { announceBet } from "../notifications/live-events.server";

/** How many proposals a bet has had: numbers each proposal's jobs. */
async function proposalNumber(tx: Tx, betId: number) {
  return (
    (
      await tx
        .select({ n: sql<number>`count(*)` })
        .from(betEvents)
        .where(
          and(
            eq(betEvents.betId, betId),
            eq(betEvents.type, "settlement_proposed"),
          ),
        )
        .limit(1)
    )[0]?.n ?? 0
  );
}

/** Each proposal mails the other side: at most this many per person, bet and hour. */
export const PROPOSALS_PER_HOUR = 5;
export const TOO_MANY_PROPOSALS =
  "You have proposed a result for this bet several times in the last hour. Please wait before proposing again.";
const PROPOSAL_WINDOW_MS = 60 * 60_000;

/**
 * Propose, withdraw, propose again: every round tells the other side, by
 * mail too. Counted in the proposal's own transaction; a product rule, so
 * RATE_LIMITS=off does not lift it. 429 with Retry-After past the cap.
 */
async function assertProposalAllowed(
  tx: Tx,
  betId: number,
  proposerId: number,
  now: number,
) {
  const recent = await tx
    .select({ at: betEvents.createdAt })
    .from(betEvents)
    .where(
      and(
        eq(betEvents.betId, betId),
        eq(betEvents.actorId, proposerId),
        eq(betEvents.type, "settlement_proposed"),
        gt(betEvents.createdAt, new Date(now - PROPOSAL_WINDOW_MS)),
      ),
    )
    .orderBy(asc(betEvents.createdAt));
  if (recent.length < PROPOSALS_PER_HOUR) return;
  const freeAt = recent[0]!.at.getTime() + PROPOSAL_WINDOW_MS;
  throw new TooManyRequestsError(
    TOO_MANY_PROPOSALS,
    Math.max(1, Math.ceil((freeAt - now) / 1000)),
  );
}

/** What a proposal says, in a sentence's words. */
export async function proposalWords(
  tx: Tx,
  outcome: Outcome,
  winnerId: number | null,
  proposerId: number,
): Promise<Words> {
  if (outcome === "void") return { key: "notify.proposal.void" };
  if (winnerId === proposerId) return { key: "notify.proposal.self" };
  return {
    key: "notify.proposal.winner",
    values: { name: await nameOf(tx, winnerId!) },
  };
}

/** What the other side is told of a proposal: who, what, and by when. */
export async function proposedWords(
  tx: Tx,
  proposal: {
    title: string;
    outcome: Outcome;
    winnerId: number | null;
    proposerId: number;
    respondBy: Date | null;
  },
): Promise<Words> {
  const { title, outcome, winnerId, proposerId, respondBy } = proposal;
  return {
    key: respondBy ? "notify.proposedUntil" : "notify.proposed",
    values: {
      actor: await nameOf(tx, proposerId),
      proposal: await proposalWords(tx, outcome, winnerId, proposerId),
      title,
      ...(respondBy && { respondBy: { at: respondBy.getTime() } }),
    },
  };
}

export async function insertProposal(
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
  await assertProposalAllowed(tx, bet.id, proposerId, now);
  const loserId = loserOf(parties, outcome, winnerId);
  const window = responseWindowMs();
  // A dispute with the referee has no timeout (docs/product-rules.md#referee): the referee, or
  // the two sides agreeing, decides.
  const respondBy = bet.disputeReferredAt ? null : now + window;
  const number = (await proposalNumber(tx, bet.id)) + 1;
  const split = outcome === "winner" ? splitPayout(bet.amountCents) : null;
  const settlement = (
    await tx
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
        // What the approve screen shows is what the API says (docs/api.md#shapes).
        feeCents: split?.feeCents ?? null,
        netCents: split?.netCents ?? null,
        paymentStatus: "pending",
      })
      .returning()
  )[0]!;
  await tx.insert(betEvents).values({
    betId: bet.id,
    actorId: proposerId,
    type: "settlement_proposed",
    data: { outcome, winnerId, loserId, notes },
  });
  await announceBet(tx, bet.id);
  if (respondBy !== null) {
    const payload = { proposedAt: now };
    const tag = `${bet.id}:${number}`;
    await scheduleJob(tx, {
      kind: "settlement_timeout",
      subjectId: bet.id,
      runAt: respondBy,
      key: `settlement_timeout:${tag}`,
      payload,
    });
    // Reminders when a third of the window has passed and when a twelfth
    // remains (24 h and 66 h of 72 h).
    await scheduleJob(tx, {
      kind: "settlement_reminder",
      subjectId: bet.id,
      runAt: now + Math.round(window / 3),
      key: `settlement_reminder:${tag}:first`,
      payload,
    });
    await scheduleJob(tx, {
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
export async function finalise(
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
  const updated = await tx
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
    .where(and(eq(bets.id, bet.id), eq(bets.status, "active")));
  if (changedRows(updated) !== 1) throw conflict(ALREADY_SETTLED);
  const final = (
    await tx
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
        and(
          eq(settlements.betId, bet.id),
          sql`${settlements.settledAt} IS NULL`,
        ),
      )
      .returning()
  )[0]!;
  if (!final) throw conflict(ALREADY_SETTLED);
  if (!voided) {
    await tx
      .update(users)
      .set({ winCount: sql`${users.winCount} + 1` })
      .where(eq(users.id, final.winnerId!));
    await tx
      .update(users)
      .set({ lossCount: sql`${users.lossCount} + 1` })
      .where(eq(users.id, final.loserId!));
    await scheduleJob(tx, {
      kind: "payment_due",
      subjectId: bet.id,
      runAt: now + Math.round(paymentDueMs() / 3),
      key: `payment_due:${bet.id}`,
    });
    await scheduleJob(tx, {
      kind: "payment_overdue",
      subjectId: bet.id,
      runAt: dueAt!,
      key: `payment_overdue:${bet.id}`,
    });
  }
  await tx.insert(betEvents).values({
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
  });
  await announceBet(tx, bet.id);
  const how: Words = { key: `notify.how.${resolution}` };
  const amount = { money: bet.amountCents, currency: bet.currency };
  for (const userId of [parties.creatorId, parties.participantId]) {
    const result: Words = voided
      ? { key: "notify.calledOff", values: { title: bet.title, how } }
      : final.winnerId === userId
        ? {
            key: "notify.youWon",
            values: {
              title: bet.title,
              how,
              loser: await nameOf(tx, final.loserId!),
              amount,
            },
          }
        : {
            key: "notify.theyWon",
            values: {
              winner: await nameOf(tx, final.winnerId!),
              title: bet.title,
              how,
              amount,
              dueAt: { at: dueAt! },
            },
          };
    await recordActivity(tx, {
      userId,
      actorId,
      type: resolution === "referee" ? "referee_ruled" : "bet_settled",
      text: result,
      betId: bet.id,
    });
  }
  return final;
}
