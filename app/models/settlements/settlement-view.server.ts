// Settlements, reading: the live settlement and what the settlement card and
// the approve screen show of it.
import { and, eq, sql } from "drizzle-orm";
import { db, preparedOnce } from "~/db/transactions.server";
import { betEvents, bets, settlements, type Settlement } from "~/db/schema";
import {
  betViewColumns,
  canViewBet,
  getBetView,
  viewOfRow,
  type BetView,
} from "../bets/bet-access.server";
import { BET_NOT_FOUND } from "~/domain/bet";
import { formatDateTime } from "~/utils/dates";
import { notFound } from "~/utils/errors";
import { splitPayout } from "~/utils/money";
import { approveRefusal, responseFactsOf } from "./settlement-rules.server";
import { nameOf } from "../accounts/display-name.server";
import { SETTLEMENT_NOT_FOUND } from "~/domain/settlement-text";

/** The live settlement, for anyone who may see the bet; else 404. */
export async function getSettlement({
  betId,
  userId,
}: {
  betId: number;
  userId: number;
}): Promise<Settlement> {
  const bet = (
    await db.select().from(bets).where(eq(bets.id, betId)).limit(1)
  )[0];
  if (!bet || !(await canViewBet(bet, userId)))
    throw notFound(SETTLEMENT_NOT_FOUND);
  const settlement = (await settlementOfBet().execute({ betId }))[0];
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

// Read on every bet page: prepared once (docs/decisions/archive/0810-middleware-and-render-cpu.md).
const settlementOfBet = preparedOnce(() =>
  db
    .select()
    .from(settlements)
    .where(eq(settlements.betId, sql.placeholder("betId")))
    .prepare("settlement_view_settlementOfBet"),
);

/** What the settlement card and the approve screen show, or null if none is live. */
export async function getSettlementView({
  betId,
  userId,
}: {
  betId: number;
  userId: number;
}): Promise<SettlementView | null> {
  const bet = await getBetView(betId);
  if (!bet || !(await canViewBet(bet, userId))) return null;
  return await settlementViewOf(bet, userId);
}

/** The same view of a bet the caller has already read as `userId` may see it. */
export async function settlementViewOf(
  bet: BetView,
  userId: number,
): Promise<SettlementView | null> {
  const settlement = (await settlementOfBet().execute({ betId: bet.id }))[0];
  return settlement ? await viewOfSettlement(bet, settlement, userId) : null;
}

// The bet page's reading: the bet's view and its live settlement (at most
// one, keyed by the bet) in one statement, a round trip less on PostgreSQL.
const betAndSettlementById = preparedOnce(() =>
  db
    .select({ ...betViewColumns(), settlement: settlements })
    .from(bets)
    .leftJoin(settlements, eq(settlements.betId, bets.id))
    .where(eq(bets.id, sql.placeholder("id")))
    .prepare("settlement_view_betAndSettlementById"),
);

/** The bet as `userId` may see it (else 404) and its live settlement's view. */
export async function getBetPage({
  betId,
  userId,
}: {
  betId: number;
  userId: number;
}): Promise<{ bet: BetView; settlementView: SettlementView | null }> {
  const row = (await betAndSettlementById().execute({ id: betId }))[0];
  if (!row || !(await canViewBet(row.bet, userId)))
    throw notFound(BET_NOT_FOUND);
  const bet = viewOfRow(row);
  return {
    bet,
    settlementView: row.settlement
      ? await viewOfSettlement(bet, row.settlement, userId)
      : null,
  };
}

async function viewOfSettlement(
  bet: BetView,
  settlement: Settlement,
  userId: number,
): Promise<SettlementView | null> {
  const creator = bet.participants.find((p) => p.seat === 1);
  const participant = bet.participants.find((p) => p.seat === 2);
  if (!creator || !participant) return null;
  const partyName = async (id: number) =>
    id === creator.id
      ? creator.username
      : id === participant.id
        ? participant.username
        : await nameOf(db, id); // the referee, who ruled
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
      settlement.winnerId === null
        ? null
        : await partyName(settlement.winnerId),
    loserName:
      settlement.loserId === null ? null : await partyName(settlement.loserId),
    proposerName: await partyName(settlement.proposedBy),
    viewerSide,
    viewerHasApproved,
    // The approve policy, as the guard asks it.
    canRespond:
      approveRefusal(
        responseFactsOf(
          { creatorId: creator.id },
          { creatorId: creator.id, participantId: participant.id },
          settlement,
        ),
        userId,
      ) === null && settlement.paymentStatus !== "completed",
    feeCents: settlement.feeCents ?? split.feeCents,
    netCents: settlement.netCents ?? split.netCents,
  };
}

/** Rejected proposals of a bet, oldest first (its history, docs/product-rules.md#settlement). */
export async function listSettlementHistory(betId: number) {
  return await db
    .select()
    .from(betEvents)
    .where(
      and(eq(betEvents.betId, betId), sql`${betEvents.type} LIKE 'settle%'`),
    )
    .orderBy(betEvents.id);
}

/**
 * What the approve screen shows of a live settlement, as `userId` sees it:
 * the respond-by time written in the person's `timeZone`.
 */
export function approveScreenView(
  view: SettlementView,
  userId: number,
  timeZone: string,
  locale = "en-US",
) {
  const s = view.settlement;
  return {
    title: view.bet.title,
    description: view.bet.description,
    amountCents: view.bet.amountCents,
    currency: view.bet.currency,
    feeCents: view.feeCents,
    netCents: view.netCents,
    winnerName: view.winnerName,
    loserName: view.loserName,
    proposerName: view.proposerName,
    notes: s.notes,
    outcome: s.outcome,
    resolution: s.resolution,
    respondBy: s.respondBy ? s.respondBy.toISOString() : null,
    respondByLabel:
      s.respondBy && !s.settledAt
        ? formatDateTime(s.respondBy, timeZone, locale)
        : null,
    settled: s.settledAt !== null,
    paymentCompleted: s.paymentStatus === "completed",
    canRespond: view.canRespond,
    viewerIsLoser: s.loserId === userId,
    sides: [
      {
        role: "Creator",
        name: view.creator.username,
        approved: s.creatorApproved,
        proposer: s.proposedBy === view.creator.id,
      },
      {
        role: "Participant",
        name: view.participant.username,
        approved: s.participantApproved,
        proposer: s.proposedBy === view.participant.id,
      },
    ],
  };
}
