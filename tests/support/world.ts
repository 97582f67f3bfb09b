// People and bets in known states, made through the API the way a person
// would, for the generated suites (hostile input, authorisation, headers).
import { Client, signUp } from "./server";

export type Person = {
  client: Client;
  user: { id: number; username: string; email: string };
};

export type BetRef = { id: number; code: string; title: string };

export const inTwoDays = () =>
  new Date(Date.now() + 2 * 86_400_000).toISOString();

export async function person(url: string, prefix = "p"): Promise<Person> {
  const { client, user } = await signUp(
    url,
    `${prefix}${process.pid % 1000}x${Math.random().toString(36).slice(2, 9)}`,
  );
  return { client, user: user as Person["user"] };
}

export async function newBet(
  creator: Person,
  over: Record<string, unknown> = {},
): Promise<BetRef> {
  const title = `Bet ${Math.random().toString(36).slice(2, 10)}`;
  const res = await creator.client.post("/api/bets", {
    title,
    description: "Whoever loses buys the coffee.",
    amount: 20,
    deadline: inTwoDays(),
    visibility: "public",
    ...over,
  });
  if (res.status !== 201)
    throw new Error(`bet not created: ${res.status} ${res.text}`);
  return { id: res.data.id, code: res.data.code, title: res.data.title };
}

/** The participant opens the bet by code (so a private one works) and joins. */
export async function joinBetAs(participant: Person, bet: BetRef) {
  const open = await participant.client.get(`/api/bets/code/${bet.code}`);
  if (open.status !== 200)
    throw new Error(`open by code: ${open.status} ${open.text}`);
  const res = await participant.client.post(`/api/bets/${bet.id}/join`, {});
  if (res.status !== 200) throw new Error(`join: ${res.status} ${res.text}`);
}

export type BetState = "pending" | "active" | "proposed" | "settled";

/**
 * A bet in the given state between creator and participant. "proposed":
 * the creator has proposed themself as the winner (their side approved).
 * "settled" is the creator's concession (docs/product-rules.md#settlement): the participant wins,
 * the creator is the loser who pays.
 */
export async function betIn(
  state: BetState,
  visibility: "public" | "private",
  creator: Person,
  participant: Person,
): Promise<BetRef> {
  const bet = await newBet(creator, { visibility });
  if (state === "pending") return bet;
  await joinBetAs(participant, bet);
  if (state === "active") return bet;
  if (state === "proposed") {
    const res = await creator.client.post(
      `/api/bets/${bet.id}/propose-settlement`,
      { winnerId: creator.user.id },
    );
    if (res.status !== 201)
      throw new Error(`propose: ${res.status} ${res.text}`);
    return bet;
  }
  const res = await creator.client.post(`/api/bets/${bet.id}/settle`, {
    winnerId: participant.user.id,
  });
  if (res.status !== 200) throw new Error(`settle: ${res.status} ${res.text}`);
  return bet;
}
