// Bets: create, join, edit, delete. Every rule about who may change a bet
// lives here, shared by the pages and the /api routes.
import { nameOf } from "../accounts/display-name.server";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { immediate } from "~/db/transactions.server";
import { changedRows } from "~/db/dialect.server";
import { betEvents, betParticipants, bets, type Bet } from "~/db/schema";
import { violatedUniqueIndex } from "~/db/unique-violation.server";
import { recordActivity } from "../social/activity.server";
import { holdAccountOpen } from "../accounts/closed-account.server";
import { editRefusal, joinRefusal, BET_FULL } from "./bet-policy.server";
import { conflict, notFound, refused } from "~/utils/errors";
import {
  assertReferee,
  generateCode,
  type BetInput,
  type ShownVersion,
} from "./bet-input.server";
import { BET_NOT_FOUND } from "~/domain/bet";
import {
  canViewBet,
  effectiveStatus,
  toViews,
  type BetCommand,
  type BetView,
} from "./bet-access.server";
import { announceBet } from "../notifications/live-events.server";

// --- Creating ---------------------------------------------------------------

// Creating and joining are inserts guarded by unique indexes (the code, a
// seat), a conditional write on the person's own row (`holdAccountOpen`:
// no close slips in between) and, for a join, the conditional
// `status = 'pending'` update: safe under READ COMMITTED, where
// simultaneous joins wait on the bet's row instead of cancelling each
// other (the `isolation` option of `immediate`). Each is a change of money
// or membership, kept by the synchronous standby before it is acknowledged.
const GUARDED_BY_ROWS = {
  isolation: "read committed",
  moneyOrMembership: true,
} as const;

export async function createBet({
  creatorId,
  input,
}: {
  creatorId: number;
  input: BetInput;
}): Promise<Bet> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const code = generateCode();
    try {
      return await immediate(async (tx) => {
        const now = new Date();
        await holdAccountOpen(tx, creatorId);
        if (input.refereeId)
          await assertReferee(tx, creatorId, input.refereeId);
        const bet = (
          await tx
            .insert(bets)
            .values({
              code,
              title: input.title,
              description: input.description,
              amountCents: input.amountCents,
              currency: input.currency ?? "USD",
              visibility: input.visibility,
              deadline: new Date(input.deadline),
              creatorId,
              refereeId: input.refereeId ?? null,
              status: "pending",
              updatedAt: now,
            })
            .returning()
        )[0]!;
        await tx
          .insert(betParticipants)
          .values({ betId: bet.id, userId: creatorId, seat: 1 });
        await tx
          .insert(betEvents)
          .values({ betId: bet.id, actorId: creatorId, type: "created" });
        await announceBet(tx, bet.id);
        return bet;
      }, GUARDED_BY_ROWS);
    } catch (error) {
      if (violatedUniqueIndex(error) === "bets_code_unique") continue; // a code collision: draw again
      throw error;
    }
  }
  throw new Error("Could not draw a unique bet code");
}

// --- Joining ----------------------------------------------------------------

export const BET_CHANGED =
  "This bet changed while you were looking. Please review it again.";

/**
 * Joins a bet as its second participant, in one immediate transaction with a
 * conditional update: of any number of simultaneous joins exactly one wins.
 * `joinRefusal` is the rule, asked here at commit time; the conditional
 * update is the race guard. `version` is the bet's `updatedAt` as the form
 * showed it; one that did not parse ("invalid") is no version of this bet.
 */
export async function joinBet({
  betId,
  userId,
  version,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  version?: ShownVersion;
  now?: number;
}) {
  return await immediate(async (tx) => {
    await holdAccountOpen(tx, userId);
    const bet = (
      await tx.select().from(bets).where(eq(bets.id, betId)).limit(1)
    )[0];
    if (!bet || !(await canViewBet(bet, userId))) throw notFound(BET_NOT_FOUND);
    const seated = await tx
      .select({ id: betParticipants.userId })
      .from(betParticipants)
      .where(eq(betParticipants.betId, betId));
    const refusal = joinRefusal(
      {
        status: effectiveStatus(bet, now),
        refereeId: bet.refereeId,
        participants: seated,
      },
      userId,
    );
    if (refusal) throw refused(refusal);
    if (
      version !== undefined &&
      version !== null &&
      version !== bet.updatedAt.getTime()
    )
      throw conflict(BET_CHANGED);

    const updated = await tx
      .update(bets)
      .set({
        status: "active",
        updatedAt: new Date(Math.max(now, bet.updatedAt.getTime() + 1)),
      })
      .where(
        and(
          eq(bets.id, betId),
          eq(bets.status, "pending"),
          gt(bets.deadline, new Date(now)),
          // The terms read above are the terms joined: an edit that
          // committed since (possible under READ COMMITTED) fails the join.
          eq(bets.updatedAt, bet.updatedAt),
        ),
      );
    if (changedRows(updated) !== 1) {
      const current = (
        await tx
          .select({ status: bets.status, updatedAt: bets.updatedAt })
          .from(bets)
          .where(eq(bets.id, betId))
          .limit(1)
      )[0];
      const edited =
        current?.status === "pending" &&
        current.updatedAt.getTime() !== bet.updatedAt.getTime();
      throw conflict(edited ? BET_CHANGED : BET_FULL);
    }
    await tx.insert(betParticipants).values({ betId, userId, seat: 2 });
    await tx
      .insert(betEvents)
      .values({ betId, actorId: userId, type: "joined" });
    await announceBet(tx, betId);
    const joiner = await nameOf(tx, userId);
    await recordActivity(tx, {
      userId: bet.creatorId,
      actorId: userId,
      type: "bet_joined",
      text: {
        key: "notify.betJoined",
        values: { actor: joiner, title: bet.title },
      },
      betId,
    });
    return await getBetViewTx(tx, betId);
  }, GUARDED_BY_ROWS);
}

async function getBetViewTx(tx: Tx, betId: number): Promise<BetView> {
  const bet = (
    await tx.select().from(bets).where(eq(bets.id, betId)).limit(1)
  )[0]!;
  return (await toViews([bet]))[0]!;
}

// --- Editing and deleting ----------------------------------------------------

/** The edit and delete guard: `editRefusal`'s answer, at commit time. */
async function assertEditable(
  tx: Tx,
  betId: number,
  userId: number,
  now: number,
  verb: "edit" | "delete",
) {
  const bet = (
    await tx.select().from(bets).where(eq(bets.id, betId)).limit(1)
  )[0];
  if (!bet || !(await canViewBet(bet, userId))) throw notFound(BET_NOT_FOUND);
  const others = (
    await tx
      .select({ n: sql<number>`count(*)` })
      .from(betParticipants)
      .where(
        and(
          eq(betParticipants.betId, betId),
          sql`${betParticipants.userId} <> ${userId}`,
        ),
      )
      .limit(1)
  )[0];
  const facts = {
    creatorId: bet.creatorId,
    status: effectiveStatus(bet, now),
    othersIn: others?.n ?? 0,
  };
  const refusal = editRefusal(facts, userId, verb);
  if (refusal) throw refused(refusal);
  return bet;
}

const untouchedByOthers = (betId: number) =>
  sql`NOT EXISTS (SELECT 1 FROM ${betParticipants} WHERE ${betParticipants.betId} = ${betId} AND ${betParticipants.seat} = 2)`;

/** The conditional-update guard: pending and nobody else in, at commit time. */
const stillEditable = (betId: number) =>
  and(eq(bets.id, betId), eq(bets.status, "pending"), untouchedByOthers(betId));

export async function updateBet({
  betId,
  userId,
  input,
  now = Date.now(),
}: {
  betId: number;
  userId: number;
  input: BetInput;
  now?: number;
}) {
  return await immediate(async (tx) => {
    const bet = await assertEditable(tx, betId, userId, now, "edit");
    if (input.refereeId) await assertReferee(tx, userId, input.refereeId);
    const result = await tx
      .update(bets)
      .set({
        title: input.title,
        description: input.description,
        amountCents: input.amountCents,
        // Only while nobody else is in (`stillEditable`): fixed once someone joined.
        ...(input.currency !== undefined ? { currency: input.currency } : {}),
        deadline: new Date(input.deadline),
        visibility: input.visibility,
        ...(input.refereeId !== undefined
          ? { refereeId: input.refereeId }
          : {}),
        // Strictly increasing, so a join that saw the old terms is refused.
        updatedAt: new Date(Math.max(now, bet.updatedAt.getTime() + 1)),
      })
      .where(stillEditable(betId));
    if (changedRows(result) !== 1)
      throw conflict(
        "You cannot edit a bet that has been joined by others.",
        "Cannot edit",
      );
    await tx.insert(betEvents).values({
      betId,
      actorId: userId,
      type: "edited",
      data: {
        before: {
          title: bet.title,
          amountCents: bet.amountCents,
          currency: bet.currency,
        },
      },
    });
    // A referee taken off the bet hears it too.
    await announceBet(tx, betId, [bet.refereeId]);
    return await getBetViewTx(tx, betId);
  }, GUARDED_BY_ROWS);
}

export async function deleteBet({
  betId,
  userId,
  now = Date.now(),
}: BetCommand) {
  await immediate(
    async (tx) => {
      await assertEditable(tx, betId, userId, now, "delete");
      // Before the delete: afterwards nobody is left to tell.
      await announceBet(tx, betId);
      const result = await tx.delete(bets).where(stillEditable(betId));
      if (changedRows(result) !== 1)
        throw conflict(
          "You cannot delete a bet that has been joined by others.",
          "Cannot edit",
        );
    },
    { moneyOrMembership: true },
  );
}
