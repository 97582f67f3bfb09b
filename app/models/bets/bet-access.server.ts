// Bets, reading and access: who may see a bet (a private one needs its code
// or a seat), the view every page and the API render, and opening by code.
import { and, eq, inArray, sql } from "drizzle-orm";
import { db, preparedOnce, type Tx } from "~/db/client.server";
import { betAccess, betParticipants, bets, users, type Bet } from "~/db/schema";
import { displayNameSql } from "../accounts/display-name.server";
import { notFound } from "~/utils/errors";
import { BET_NOT_FOUND, type BetStatus } from "~/domain/bet";
import { assertMayTryCode, recordCodeMiss } from "./code-guesses.server";

import { CODE_LENGTH, normalizeCode } from "./bet-input.server";
// --- Reading ----------------------------------------------------------------

export type Participant = {
  id: number;
  username: string;
  avatarUrl: string | null;
  seat: number;
};
export type BetView = Bet & {
  participants: Participant[];
  status: BetStatus;
  creatorName: string | null;
  refereeName: string | null;
};

/** A command by `userId` on one bet at `now` (delete, approve, refer, nudge). */
export type BetCommand = { betId: number; userId: number; now?: number };

/** A pending bet past its deadline reads as cancelled; a read never writes. */
export function effectiveStatus(
  bet: Pick<Bet, "status" | "deadline">,
  now = Date.now(),
): BetStatus {
  return bet.status === "pending" && bet.deadline.getTime() <= now
    ? "cancelled"
    : bet.status;
}

// The per-page reads are prepared once and reused (their SQL never changes;
// only the values do): building and preparing a query costs more than running it.
export const participantsOfBets = preparedOnce(() =>
  db
    .select({
      betId: betParticipants.betId,
      id: users.id,
      username: displayNameSql(),
      avatarUrl: users.avatarUrl,
      seat: betParticipants.seat,
    })
    .from(betParticipants)
    .innerJoin(users, eq(users.id, betParticipants.userId))
    .where(
      sql`${betParticipants.betId} in (select value from json_each(${sql.placeholder("ids")}))`,
    )
    .orderBy(betParticipants.seat)
    .prepare(),
);

export function participantsOf(betIds: number[]): Map<number, Participant[]> {
  const map = new Map<number, Participant[]>();
  if (betIds.length === 0) return map;
  const rows = participantsOfBets().all({ ids: JSON.stringify(betIds) });
  for (const { betId, ...p } of rows) {
    const list = map.get(betId) ?? [];
    list.push(p);
    map.set(betId, list);
  }
  return map;
}

export function refereeNames(rows: Bet[]): Map<number, string> {
  const ids = [
    ...new Set(rows.map((b) => b.refereeId).filter((id) => id !== null)),
  ];
  if (ids.length === 0) return new Map();
  return new Map(
    db
      .select({ id: users.id, username: displayNameSql() })
      .from(users)
      .where(inArray(users.id, ids))
      .all()
      .map((u) => [u.id, u.username]),
  );
}

export function toViews(rows: Bet[], now = Date.now()): BetView[] {
  const participants = participantsOf(rows.map((b) => b.id));
  const referees = refereeNames(rows);
  return rows.map((bet) => {
    const list = participants.get(bet.id) ?? [];
    return {
      ...bet,
      status: effectiveStatus(bet, now),
      participants: list,
      creatorName: list.find((p) => p.id === bet.creatorId)?.username ?? null,
      refereeName:
        bet.refereeId === null ? null : (referees.get(bet.refereeId) ?? null),
    };
  });
}

export const betById = preparedOnce(() =>
  db
    .select()
    .from(bets)
    .where(eq(bets.id, sql.placeholder("id")))
    .prepare(),
);

export function findBet(betId: number): Bet | undefined {
  return betById().get({ id: betId });
}

export function getBetView(betId: number): BetView | null {
  const bet = findBet(betId);
  return bet ? toViews([bet])[0]! : null;
}

export function isParticipant(
  betId: number,
  userId: number,
  tx: Tx | typeof db = db,
) {
  return (
    tx
      .select({ u: betParticipants.userId })
      .from(betParticipants)
      .where(
        and(
          eq(betParticipants.betId, betId),
          eq(betParticipants.userId, userId),
        ),
      )
      .get() !== undefined
  );
}

/**
 * docs/product-rules.md#private-bets: a private bet is seen by its participants, its referee
 * (docs/product-rules.md#referee) and those who opened it by code.
 */
export function canViewBet(
  bet: Pick<Bet, "id" | "visibility"> & { refereeId?: number | null },
  userId: number | null,
): boolean {
  if (bet.visibility === "public") return true;
  if (userId === null) return false;
  if (bet.refereeId === userId) return true;
  if (isParticipant(bet.id, userId)) return true;
  return (
    db
      .select({ u: betAccess.userId })
      .from(betAccess)
      .where(and(eq(betAccess.betId, bet.id), eq(betAccess.userId, userId)))
      .get() !== undefined
  );
}

/** The bet as `userId` may see it; a private bet without access is a 404. */
export function getBetForViewer({
  betId,
  userId,
}: {
  betId: number;
  userId: number | null;
}): BetView {
  const view = getBetView(betId);
  if (!view || !canViewBet(view, userId)) throw notFound(BET_NOT_FOUND);
  return view;
}

export function findBetByCode(code: string): Bet | null {
  const normalized = normalizeCode(code);
  if (normalized.length !== CODE_LENGTH) return null;
  return db.select().from(bets).where(eq(bets.code, normalized)).get() ?? null;
}

/**
 * Opening a bet by its code (/join/{code}, the code search, a share link
 * with ?code=) grants access to a private bet from then on.
 */
export function openBetByCode({
  code,
  userId,
  clientAddress,
}: {
  code: string;
  userId: number;
  clientAddress: string;
}): BetView {
  const guesser = { userId, clientAddress };
  assertMayTryCode(guesser);
  const bet = findBetByCode(code);
  if (!bet) {
    recordCodeMiss(guesser);
    throw notFound("No bet found with that code. Please check and try again.");
  }
  if (bet.visibility === "private") {
    db.insert(betAccess)
      .values({ betId: bet.id, userId })
      .onConflictDoNothing()
      .run();
  }
  return toViews([bet])[0]!;
}

/** A share link's `?code=` unlocks a private bet for whoever holds the link. */
export function codeMatches(
  bet: Pick<Bet, "code">,
  code: string | null | undefined,
) {
  return typeof code === "string" && normalizeCode(code) === bet.code;
}
