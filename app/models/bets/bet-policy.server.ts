// Bets, policy: what this viewer may do with a bet (edit, delete, join), and
// why not (the Epic Stack's permissions idea). A page asks to decide what to show; the model's
// transactional guard asks the same function and throws its answer. Each
// message is written here once.
import type { BetStatus } from "~/domain/bet";
import type { Refusal } from "~/utils/errors";

export type EditFacts = {
  creatorId: number;
  /** The effective status (a pending bet past its deadline reads cancelled). */
  status: BetStatus;
  /** People in the bet other than the viewer. */
  othersIn: number;
};

const EDIT_REFUSALS = {
  edit: {
    notCreator: "You can only edit bets you've created.",
    notPending: "You can only edit bets that are still pending.",
    joined: "You cannot edit a bet that has been joined by others.",
  },
  delete: {
    notCreator: "You can only delete bets you've created.",
    notPending: "You can only delete bets that are still pending.",
    joined: "You cannot delete a bet that has been joined by others.",
  },
} as const;

/** docs/product-rules.md#roles: the creator only, still pending, nobody else in; else why not. */
export function editRefusal(
  bet: EditFacts,
  userId: number,
  verb: "edit" | "delete" = "edit",
): (Refusal & { title: string }) | null {
  const says = EDIT_REFUSALS[verb];
  if (bet.creatorId !== userId)
    return { status: 403, message: says.notCreator, title: "Access denied" };
  if (bet.status !== "pending")
    return { status: 409, message: says.notPending, title: "Cannot edit" };
  if (bet.othersIn > 0)
    return { status: 409, message: says.joined, title: "Cannot edit" };
  return null;
}

/** The facts `editRefusal` needs, from a bet as the pages read it. */
export function editFactsOf(
  bet: { creatorId: number; status: BetStatus; participants: { id: number }[] },
  userId: number,
): EditFacts {
  return {
    creatorId: bet.creatorId,
    status: bet.status,
    othersIn: bet.participants.filter((p) => p.id !== userId).length,
  };
}

/** Whether to offer Edit: the same rule the edit guard enforces. */
export function mayEditBet(
  bet: { creatorId: number; status: BetStatus; participants: { id: number }[] },
  userId: number,
): boolean {
  return editRefusal(editFactsOf(bet, userId), userId) === null;
}

// --- Joining ----------------------------------------------------------------

export const ALREADY_IN = "You have already joined this bet.";
export const REFEREE_CANNOT_JOIN = "The referee cannot join this bet.";
export const JOIN_CANCELLED =
  "This bet has been cancelled: its deadline passed before anyone joined.";
export const JOIN_SETTLED = "This bet has already been settled.";
export const BET_FULL = "Bet already has the maximum number of participants.";
/** How the join page words a closed bet (docs/product-rules.md#joining). */
const CLOSED_SHOWN =
  "This bet has been settled or cancelled and can no longer be joined.";

/** A bet has two seats: the creator's and one joiner's. */
const SEATS = 2;

export type JoinFacts = {
  /** The effective status (a pending bet past its deadline reads cancelled). */
  status: BetStatus;
  refereeId: number | null;
  /** Who holds a seat; the creator holds the first. */
  participants: { id: number }[];
};

/**
 * docs/product-rules.md#joining: anyone not yet in a pending bet with a free
 * seat, except its referee; else why not. Who may see the bet (else 404) is
 * asked before, and the version the form showed after: neither is a rule of
 * joining. `shown` is the join page's wording of the same refusal.
 */
export function joinRefusal(bet: JoinFacts, userId: number): Refusal | null {
  if (bet.participants.some((p) => p.id === userId))
    return {
      status: 409,
      message: ALREADY_IN,
      shown: "You are already in this bet.",
    };
  if (bet.refereeId === userId)
    return {
      status: 409,
      message: REFEREE_CANNOT_JOIN,
      shown: "You are this bet's referee, so you cannot join it.",
    };
  if (bet.status === "cancelled")
    return { status: 409, message: JOIN_CANCELLED, shown: CLOSED_SHOWN };
  if (bet.status === "settled")
    return { status: 409, message: JOIN_SETTLED, shown: CLOSED_SHOWN };
  if (bet.status !== "pending" || bet.participants.length >= SEATS)
    return { status: 409, message: BET_FULL };
  return null;
}

/** Whether to offer Join: the same rule the join guard enforces. */
export function mayJoinBet(bet: JoinFacts, userId: number): boolean {
  return joinRefusal(bet, userId) === null;
}
