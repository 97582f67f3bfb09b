// Shared by the settlement and payment API tests: bets made and joined over
// HTTP, as a real client would.
import { expect } from "vitest";
import { Client, signUp } from "../support/server";

export async function activeBetOverHttp(baseUrl: string, amount = 100) {
  const a = await signUp(baseUrl);
  const b = await signUp(baseUrl);
  const res = await a.client.post("/api/bets", {
    title: "Who wins the derby",
    description: "Home team wins the derby on Sunday.",
    amount,
    deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    visibility: "public",
  });
  expect(res.status, res.text).toBe(201);
  const join = await b.client.post(`/api/bets/${res.data.id}/join`, {});
  expect(join.status, join.text).toBe(200);
  return {
    betId: res.data.id as number,
    creator: a as { client: Client; user: { id: number; username: string } },
    joiner: b as { client: Client; user: { id: number; username: string } },
  };
}

/** An active bet settled over HTTP: the joiner won, the creator owes. */
export async function settledBetOverHttp(baseUrl: string, amount = 100) {
  const bet = await activeBetOverHttp(baseUrl, amount);
  const p = await bet.joiner.client.post(
    `/api/bets/${bet.betId}/propose-settlement`,
    { winnerId: bet.joiner.user.id },
  );
  expect(p.status, p.text).toBe(201);
  const a = await bet.creator.client.post(
    `/api/settlements/${bet.betId}/approve`,
  );
  expect(a.status, a.text).toBe(200);
  return { betId: bet.betId, winner: bet.joiner, loser: bet.creator };
}

export const GOOD_CARD = {
  cardNumber: "4242 4242 4242 4242",
  expiry: "12/40",
  cvc: "123",
};

/** Creates, confirms (test card) and records the loser's payment. */
export async function payOverHttp(client: Client, betId: number) {
  const intent = await client.post("/api/create-payment-intent", { betId });
  expect(intent.status, intent.text).toBe(200);
  const paymentIntentId = intent.data.paymentIntentId as string;
  const ok = await client.post("/api/payments/demo/confirm", {
    paymentIntentId,
    ...GOOD_CARD,
  });
  expect(ok.status, ok.text).toBe(200);
  const rec = await client.post(`/api/bets/${betId}/record-payment`, {
    paymentIntentId,
    amount: intent.data.amount,
  });
  expect(rec.status, rec.text).toBe(200);
}
