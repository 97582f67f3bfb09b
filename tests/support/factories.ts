// Model-test factories: people and bets made through the real model
// functions, so every rule applies to the test data too.
import { registerUser } from "~/models/accounts/user.server";
import { createBet, joinBet } from "~/models/bets/bet.server";
import { parseBetInput } from "~/models/bets/bet-input.server";
import type { Currency } from "~/domain/currency";

let n = 0;
export async function person(prefix = "p") {
  n += 1;
  const name = `${prefix}${process.pid % 1000}n${n}`;
  return registerUser({
    username: name,
    email: `${name}@example.com`,
    password: "secret123",
  });
}

export async function makeBet(
  creatorId: number,
  amount = 100,
  title = "Derby",
  /** Whole units of it; none sent is US dollars. */
  currency?: Currency,
) {
  return await createBet({
    creatorId,
    input: parseBetInput(
      {
        title,
        description: "Loser buys the pizza",
        amount,
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
        visibility: "public",
        ...(currency ? { currency } : {}),
      },
      "create",
    ),
  });
}

/** An active bet: creator and a second participant. */
export async function activeBet(amount = 100, currency?: Currency) {
  const creator = await person("c");
  const joiner = await person("j");
  const bet = await makeBet(creator.id, amount, "Derby", currency);
  await joinBet({ betId: bet.id, userId: joiner.id });
  return { creator, joiner, bet };
}
