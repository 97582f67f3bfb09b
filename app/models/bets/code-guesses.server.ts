// A private bet is hidden by its 6-character code (docs/product-rules.md#private-bets). Guessing
// codes is the way in, so every lookup by code that misses counts against
// the account and the address that made it (docs/product-rules.md#abuse-limits): at these limits,
// finding one bet among a thousand private ones takes longer than bets live
// (docs/decisions/0502-code-guessing.md).
//
// The guess is taken before the lookup and given back if it finds something
// (docs/decisions/1035-limits-taken-atomically.md): counted only after a
// miss, a burst of simultaneous guesses would all be looked up before the
// first was counted; looked up first and refused after, a hit in the burst
// would still show as a hit.
import {
  AbuseLimit,
  giveBack,
  takeTogether,
} from "../requests/abuse-limits.server";

export const TOO_MANY_CODE_MISSES =
  "Too many codes that matched no bet. Please wait a few minutes and try again.";

const WINDOW_MS = 10 * 60_000;
const perAccount = new AbuseLimit({
  name: "code-guesses-per-account",
  limit: 20,
  windowMs: WINDOW_MS,
  message: TOO_MANY_CODE_MISSES,
});
const perAddress = new AbuseLimit({
  name: "code-guesses-per-address",
  limit: 60,
  windowMs: WINDOW_MS,
  message: TOO_MANY_CODE_MISSES,
});

/** Who is trying a code: a signed-in user, or a visitor known by address. */
export type CodeGuesser = { userId: number | null; clientAddress: string };

/**
 * Runs a lookup by code as one guess: 429 before it once the misses are
 * used up; a lookup that finds something (not null) costs nothing.
 */
export async function tryCode<T>(
  guesser: CodeGuesser,
  lookUp: () => Promise<T | null>,
): Promise<T | null> {
  const guess = await takeTogether([
    ...(guesser.userId !== null
      ? [[perAccount, [`user:${guesser.userId}`]] as [AbuseLimit, string[]]]
      : []),
    [perAddress, [`address:${guesser.clientAddress}`]],
  ]);
  const found = await lookUp();
  // Giving back is bookkeeping: a hit is answered even when it fails.
  if (found !== null)
    await giveBack(guess).catch((error: unknown) =>
      console.warn("code guesses: a hit's guess not given back", error),
    );
  return found;
}
