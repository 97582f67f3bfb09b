// A new message on a bet is heard by Web Push (docs/product-rules.md#messages):
// delivered to the local push service, which checks the VAPID signature and
// decrypts the payload with the subscription's private key as a browser
// would. The others on the bet are told, the author is not; the push names
// the author and the bet, never the words; it opens the bet; a person who
// switched it off hears nothing.
import { describe, expect, it } from "vitest";
import { usePushService, useServer } from "../support/use-server";
import { joinBetAs, newBet, person, type Person } from "../support/world";
import type { Subscription } from "../support/push-service";

const push = usePushService();
const server = useServer(() => ({
  OUTBOX_POLL_MS: "200",
  OUTBOX_RETRY_BASE_MS: "300",
  PUSH_ENDPOINT_HOSTS: "127.0.0.1",
}));

const idOf = (sub: Subscription) => sub.endpoint.split("/").pop()!;
const TITLE = "A new message on a bet";
/** The message pushes a subscription got (the join's own push may land late). */
const messagePushes = (sub: Subscription) =>
  push.received.filter((p) => p.id === idOf(sub) && p.payload.title === TITLE);

async function subscribed(who: Person) {
  const sub = push.subscribe();
  const res = await who.client.post("/api/push-subscriptions", sub);
  expect(res.status, res.text).toBe(201);
  return sub;
}

describe("a new message, heard by push", () => {
  it("reaches the other side and the referee, decrypted; not the author; not whoever switched it off", async () => {
    const alice = await person(server.url, "wa");
    const bob = await person(server.url, "wb");
    const referee = await person(server.url, "wr");
    const ask = await alice.client.post("/api/friends", {
      friendId: referee.user.id,
    });
    expect(ask.status, ask.text).toBe(201);
    await referee.client.post("/api/friends/accept", {
      friendId: alice.user.id,
    });
    const bet = await newBet(alice, {
      title: "Coffee at eight",
      refereeId: referee.user.id,
    });
    await joinBetAs(bob, bet);
    const aliceSub = await subscribed(alice);
    const bobSub = await subscribed(bob);
    const refereeSub = await subscribed(referee);

    const sent = await alice.client.post(`/api/bets/${bet.id}/messages`, {
      body: "The secret words stay on the bet.",
    });
    expect(sent.status, sent.text).toBe(201);

    for (const sub of [bobSub, refereeSub]) {
      const got = await push.waitFor(
        (p) => p.id === idOf(sub) && p.payload.title === TITLE,
      );
      expect(got.payload).toEqual({
        title: TITLE,
        body: `${alice.user.username} wrote a message on "Coffee at eight"`,
        url: `/bet/${bet.id}`,
      });
      expect(got.ttl).toBeGreaterThan(0);
    }
    // The words never leave the bet's page; the author is not told.
    expect(JSON.stringify(push.received)).not.toContain("secret words");
    expect(push.refused).toEqual([]);

    // Bob switches it off: the referee still hears the next one, Bob not.
    const off = await bob.client.put("/api/user/notification-preferences", {
      push: { bet_message: false },
    });
    expect(off.status, off.text).toBe(200);
    const again = await alice.client.post(`/api/bets/${bet.id}/messages`, {
      body: "One more.",
    });
    expect(again.status).toBe(201);
    await push.waitFor(
      (p) =>
        p.id === idOf(refereeSub) && messagePushes(refereeSub).length === 2,
    );
    // The outbox works through its rows in order: by now Bob's was decided.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(messagePushes(bobSub)).toHaveLength(1);
    expect(messagePushes(aliceSub)).toHaveLength(0);
  });
});
