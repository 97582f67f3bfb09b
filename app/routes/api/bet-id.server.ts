// The API's bet routes ({id} is a bet's id): the signed-in user and the id,
// or the model's 404 for an {id} that is not one (the settlement routes
// answer theirs with SETTLEMENT_NOT_FOUND).
import {
  requireApiUser,
  type RequestArgs,
} from "~/models/accounts/session.server";
import { SETTLEMENT_NOT_FOUND } from "~/domain/settlement-text";
import { betIdOrNotFound } from "~/models/bets/bet-id.server";

type BetRouteArgs = RequestArgs & { params: { id?: string } };

/** The signed-in user (401 otherwise), then the route's bet id. */
export async function requireBetRoute(args: BetRouteArgs, missing?: string) {
  const user = await requireApiUser(args);
  return { user, betId: betIdOrNotFound(args.params.id, missing) };
}

/** The settlement routes ({id} is the bet's): their 404 is SETTLEMENT_NOT_FOUND. */
export function requireSettlementRoute(args: BetRouteArgs) {
  return requireBetRoute(args, SETTLEMENT_NOT_FOUND);
}
