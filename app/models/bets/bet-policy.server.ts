// Bets, policy: what this viewer may do with a bet, and why not (the Epic
// Stack's permissions idea). A page asks to decide what to show; the model's
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
