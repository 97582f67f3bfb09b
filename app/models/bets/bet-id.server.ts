// A route's bet id, read the way the model reads a bet: a malformed {id}
// gets the same 404 as a bet the viewer cannot see, on both doors.
import { BET_NOT_FOUND } from "~/domain/bet";
import { parseId } from "~/utils/validation";
import { notFound } from "~/utils/errors";

/**
 * A route's bet id ({id} in /bet/{id}, /api/bets/{id}, …), or the 404 the
 * model gives a bet the viewer cannot see: a malformed id tells no more than
 * a missing one. `missing` is that 404's message (the settlement API says
 * SETTLEMENT_NOT_FOUND).
 */
export function betIdOrNotFound(
  raw: string | undefined,
  missing = BET_NOT_FOUND,
): number {
  const id = parseId(raw);
  if (id === null) throw notFound(missing);
  return id;
}
