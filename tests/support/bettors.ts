// Shared by the bet model tests: numbered users and valid bet input.
import { registerUser } from "~/models/accounts/user.server";
import { parseBetInput } from "~/models/bets/bet-input.server";

let n = 0;
/** A new user with a numbered name (bettor1, bettor2, …). */
export async function person() {
  n += 1;
  return registerUser({
    username: `bettor${n}`,
    email: `bettor${n}@example.com`,
    password: "secret123",
  });
}

export const DAY = 86_400_000;
/** Valid create input a day ahead, with `overrides`. */
export function input(overrides: Partial<Record<string, unknown>> = {}) {
  return parseBetInput(
    {
      title: "Who wins the derby",
      description: "Loser buys the pizza",
      amount: 20,
      deadline: new Date(Date.now() + DAY).toISOString(),
      visibility: "public",
      ...overrides,
    },
    "create",
  );
}
