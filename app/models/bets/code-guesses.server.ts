// A private bet is hidden by its 6-character code (docs/product-rules.md#private-bets). Guessing
// codes is the way in, so every lookup by code that misses counts against
// the account and the address that made it (docs/product-rules.md#abuse-limits): at these limits,
// finding one bet among a thousand private ones takes longer than bets live
// (docs/decisions/0502).
import { AbuseLimit } from "~/models/requests/abuse-limits.server";

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

async function run(guesser: CodeGuesser, action: "check" | "record") {
  if (guesser.userId !== null)
    await perAccount[action]([`user:${guesser.userId}`]);
  await perAddress[action]([`address:${guesser.clientAddress}`]);
}

/** 429 before a lookup by code, once the misses are used up. */
export async function assertMayTryCode(guesser: CodeGuesser) {
  await run(guesser, "check");
}

export async function recordCodeMiss(guesser: CodeGuesser) {
  await run(guesser, "record");
}
