// Who talks on a bet (docs/product-rules.md#messages): its two seats and
// its referee. Everyone else is refused the way the bet's visibility says.
import { and, eq } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import type { db } from "~/db/transactions.server";
import { betAccess, betParticipants, bets } from "~/db/schema";
import { BET_NOT_FOUND } from "~/domain/bet";
import { forbidden, notFound } from "~/utils/errors";

export const NOT_ON_BET =
  "Only the people on this bet and its referee can read and write its messages.";

export type Reader = Tx | typeof db;

/** The people who talk on a bet: its seats and its referee. */
async function talkersOf(
  tx: Reader,
  bet: { id: number; refereeId: number | null },
) {
  const seats = await tx
    .select({ userId: betParticipants.userId })
    .from(betParticipants)
    .where(eq(betParticipants.betId, bet.id));
  const people = new Set(seats.map((s) => s.userId));
  if (bet.refereeId !== null) people.add(bet.refereeId);
  return people;
}

/**
 * The bet and its talkers when `userId` is one of them; otherwise the
 * refusal: 403 to someone who may see the bet (a public one, or a private
 * one opened by its code), the bet's 404 to anyone else.
 */
export async function requireTalker(tx: Reader, betId: number, userId: number) {
  const bet = (
    await tx
      .select({
        id: bets.id,
        title: bets.title,
        visibility: bets.visibility,
        refereeId: bets.refereeId,
      })
      .from(bets)
      .where(eq(bets.id, betId))
      .limit(1)
  )[0];
  if (!bet) throw notFound(BET_NOT_FOUND);
  const people = await talkersOf(tx, bet);
  if (people.has(userId)) return { bet, people };
  if (bet.visibility === "public") throw forbidden(NOT_ON_BET);
  const opened = await tx
    .select({ u: betAccess.userId })
    .from(betAccess)
    .where(and(eq(betAccess.betId, betId), eq(betAccess.userId, userId)))
    .limit(1);
  if (opened.length > 0) throw forbidden(NOT_ON_BET);
  throw notFound(BET_NOT_FOUND);
}
