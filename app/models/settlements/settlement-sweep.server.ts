// Settlements, the sweep's part (docs/product-rules.md#answer-windows): an unanswered proposal is
// approved at its deadline, and the silent side is reminded before it.
import { eq } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { betEvents, bets, type Job, type Settlement } from "~/db/schema";
import { recordActivity } from "../social/activity.server";
import { liveSettlement, partiesOf } from "./settlement-rules.server";
import { nameOf } from "../accounts/display-name.server";
import { finalise, proposalWords } from "./settlement-finalise.server";
import { announceBet } from "../notifications/live-events.server";

/** The job still concerns the proposal that is live now, unanswered. */
async function liveProposalFor(tx: Tx, job: Job) {
  const live = await liveSettlement(tx, job.subjectId);
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
export async function timeOutProposal(tx: Tx, job: Job, now: number) {
  const live = await liveProposalFor(tx, job);
  if (live) await timeOutIfDue(tx, live, now);
}

/**
 * Settles `live` as its timeout does if its answer window has closed,
 * whether the sweep has come round yet or not: an answer that arrives late
 * meets the bet as the deadline left it. The settled row, or null when the
 * window is still open (or there is none: a referred dispute).
 */
export async function timeOutIfDue(
  tx: Tx,
  live: Settlement,
  now: number,
): Promise<Settlement | null> {
  if (live.settledAt || live.respondBy === null) return null;
  if (live.respondBy.getTime() > now) return null;
  const bet = (
    await tx.select().from(bets).where(eq(bets.id, live.betId)).limit(1)
  )[0];
  const parties = await partiesOf(tx, live.betId);
  if (!bet || bet.status !== "active" || !parties || bet.disputeReferredAt)
    return null;
  const silent = live.creatorApproved
    ? parties.participantId
    : parties.creatorId;
  await tx.insert(betEvents).values({
    betId: bet.id,
    actorId: null,
    type: "settlement_timed_out",
    data: { silentId: silent },
  });
  await announceBet(tx, bet.id);
  return await finalise(tx, {
    bet,
    settlement: live,
    parties,
    actorId: null,
    resolution: "timeout",
    now,
  });
}

/** Reminds the side that has not answered (a third in, a twelfth left). */
export async function remindProposal(tx: Tx, job: Job) {
  const live = await liveProposalFor(tx, job);
  if (!live || live.respondBy === null) return;
  const bet = (
    await tx.select().from(bets).where(eq(bets.id, job.subjectId)).limit(1)
  )[0];
  const parties = await partiesOf(tx, job.subjectId);
  if (!bet || bet.status !== "active" || !parties) return;
  const silent = live.creatorApproved
    ? parties.participantId
    : parties.creatorId;
  await recordActivity(tx, {
    userId: silent,
    actorId: live.proposedBy,
    type: "settlement_reminder",
    text: {
      key: "notify.proposalReminder",
      values: {
        actor: await nameOf(tx, live.proposedBy),
        proposal: await proposalWords(
          tx,
          live.outcome,
          live.winnerId,
          live.proposedBy,
        ),
        title: bet.title,
        respondBy: { at: live.respondBy.getTime() },
      },
    },
    betId: bet.id,
  });
}
