// Bets, reading and access: who may see a bet (a private one needs its code
// or a seat), the view every page and the API render, and opening by code.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "~/db/connections.server";
import { db, immediate, preparedOnce } from "~/db/transactions.server";
import { idListParam, inIdList, jsonRowsColumn } from "~/db/dialect.server";
import { betAccess, betParticipants, bets, users, type Bet } from "~/db/schema";
import { displayNameSql } from "../accounts/display-name.server";
import { notFound } from "~/utils/errors";
import { BET_NOT_FOUND, type BetStatus } from "~/domain/bet";
import type { Currency } from "~/domain/currency";
import { tryCode } from "./code-guesses.server";

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
    .where(inIdList(betParticipants.betId, "ids"))
    .orderBy(betParticipants.seat)
    .prepare("bet_access_participantsOfBets"),
);

export async function participantsOf(
  betIds: number[],
): Promise<Map<number, Participant[]>> {
  const map = new Map<number, Participant[]>();
  if (betIds.length === 0) return map;
  const rows = await participantsOfBets().execute({
    ids: idListParam(betIds),
  });
  for (const { betId, ...p } of rows) {
    const list = map.get(betId) ?? [];
    list.push(p);
    map.set(betId, list);
  }
  return map;
}

export async function refereeNames(rows: Bet[]): Promise<Map<number, string>> {
  const ids = [
    ...new Set(rows.map((b) => b.refereeId).filter((id) => id !== null)),
  ];
  if (ids.length === 0) return new Map();
  return new Map(
    (
      await db
        .select({ id: users.id, username: displayNameSql() })
        .from(users)
        .where(inArray(users.id, ids))
    ).map((u) => [u.id, u.username]),
  );
}

function viewOf(
  bet: Bet,
  participants: Participant[],
  refereeName: string | null,
  now: number,
): BetView {
  return {
    ...bet,
    status: effectiveStatus(bet, now),
    participants,
    creatorName:
      participants.find((p) => p.id === bet.creatorId)?.username ?? null,
    refereeName,
  };
}

export async function toViews(
  rows: Bet[],
  now = Date.now(),
): Promise<BetView[]> {
  const participants = await participantsOf(rows.map((b) => b.id));
  const referees = await refereeNames(rows);
  return rows.map((bet) =>
    viewOf(
      bet,
      participants.get(bet.id) ?? [],
      bet.refereeId === null ? null : (referees.get(bet.refereeId) ?? null),
      now,
    ),
  );
}

export const betById = preparedOnce(() =>
  db
    .select()
    .from(bets)
    .where(eq(bets.id, sql.placeholder("id")))
    .prepare("bet_access_betById"),
);

export async function findBet(betId: number): Promise<Bet | undefined> {
  return (await betById().execute({ id: betId }))[0];
}

// A bet's view in the same statement as the bet: its participants (a JSON
// array) and its referee's display name as columns. Every bet page and My
// Bets read them so; on PostgreSQL each statement saved is a round trip's
// CPU (docs/quality.md, "One round trip less on PostgreSQL").
export type BetViewRow = {
  bet: Bet;
  participants: Participant[];
  refereeName: string | null;
};

export function betViewColumns() {
  return {
    bet: bets,
    participants: jsonRowsColumn<Participant>(
      {
        id: users.id,
        username: displayNameSql(),
        avatarUrl: users.avatarUrl,
        seat: betParticipants.seat,
      },
      sql`from ${betParticipants} inner join ${users} on ${users.id} = ${betParticipants.userId} where ${betParticipants.betId} = ${bets.id}`,
    ),
    refereeName: sql<
      string | null
    >`(select ${displayNameSql()} from ${users} where ${users.id} = ${bets.refereeId})`,
  };
}

export function viewOfRow(row: BetViewRow, now = Date.now()): BetView {
  const seated = row.participants.sort((a, b) => a.seat - b.seat);
  return viewOf(row.bet, seated, row.refereeName, now);
}

const betViewById = preparedOnce(() =>
  db
    .select(betViewColumns())
    .from(bets)
    .where(eq(bets.id, sql.placeholder("id")))
    .prepare("bet_access_betViewById"),
);

export async function getBetView(
  betId: number,
  now = Date.now(),
): Promise<BetView | null> {
  const row = (await betViewById().execute({ id: betId }))[0];
  return row ? viewOfRow(row, now) : null;
}

/** A bet's currency (US dollars for a bet that is gone: nothing is shown in it). */
export async function betCurrency(betId: number): Promise<Currency> {
  const row = (
    await db
      .select({ currency: bets.currency })
      .from(bets)
      .where(eq(bets.id, betId))
      .limit(1)
  )[0];
  return row?.currency ?? "USD";
}

export async function isParticipant(
  betId: number,
  userId: number,
  tx: Tx | typeof db = db,
) {
  return (
    (
      await tx
        .select({ u: betParticipants.userId })
        .from(betParticipants)
        .where(
          and(
            eq(betParticipants.betId, betId),
            eq(betParticipants.userId, userId),
          ),
        )
        .limit(1)
    )[0] !== undefined
  );
}

/**
 * docs/product-rules.md#private-bets: a private bet is seen by its participants, its referee
 * (docs/product-rules.md#referee) and those who opened it by code.
 */
export async function canViewBet(
  bet: Pick<Bet, "id" | "visibility"> & { refereeId?: number | null },
  userId: number | null,
): Promise<boolean> {
  if (bet.visibility === "public") return true;
  if (userId === null) return false;
  if (bet.refereeId === userId) return true;
  if (await isParticipant(bet.id, userId)) return true;
  return (
    (
      await db
        .select({ u: betAccess.userId })
        .from(betAccess)
        .where(and(eq(betAccess.betId, bet.id), eq(betAccess.userId, userId)))
        .limit(1)
    )[0] !== undefined
  );
}

/** The bet as `userId` may see it; a private bet without access is a 404. */
export async function getBetForViewer({
  betId,
  userId,
}: {
  betId: number;
  userId: number | null;
}): Promise<BetView> {
  const view = await getBetView(betId);
  if (!view || !(await canViewBet(view, userId))) throw notFound(BET_NOT_FOUND);
  return view;
}

export async function findBetByCode(code: string): Promise<Bet | null> {
  const normalized = normalizeCode(code);
  if (normalized.length !== CODE_LENGTH) return null;
  return (
    (
      await db.select().from(bets).where(eq(bets.code, normalized)).limit(1)
    )[0] ?? null
  );
}

/**
 * Opening a bet by its code (/join/{code}, the code search, a share link
 * with ?code=) grants access to a private bet from then on.
 */
export async function openBetByCode({
  code,
  userId,
  clientAddress,
}: {
  code: string;
  userId: number;
  clientAddress: string;
}): Promise<BetView> {
  const guesser = { userId, clientAddress };
  const bet = await tryCode(guesser, () => findBetByCode(code));
  if (!bet)
    throw notFound("No bet found with that code. Please check and try again.");
  if (bet.visibility === "private") {
    await immediate(
      (tx) =>
        tx
          .insert(betAccess)
          .values({ betId: bet.id, userId })
          .onConflictDoNothing(),
      { bookkeeping: true },
    );
  }
  return (await toViews([bet]))[0]!;
}

/** A share link's `?code=` unlocks a private bet for whoever holds the link. */
export function codeMatches(
  bet: Pick<Bet, "code">,
  code: string | null | undefined,
) {
  return typeof code === "string" && normalizeCode(code) === bet.code;
}
