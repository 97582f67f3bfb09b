// The webhook route over real HTTP on the built server with (fake) Stripe
// test keys: no request leaves the machine, since a webhook only receives.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";
import { Client } from "../support/server";
import { activeBetOverHttp } from "./settle-helpers";

const SECRET = "whsec_api_test";
const stripe = new Stripe("sk_test_fake");
const server = useServer({
  DEMO_MODE: "0",
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
  STRIPE_WEBHOOK_SECRET: SECRET,
});

function post(payload: string, secret = SECRET) {
  return new Client(server.url).request("POST", "/api/stripe/webhook", {
    body: payload,
    headers: {
      "Content-Type": "application/json",
      // Stripe's servers are another site: the cross-site check must not apply.
      Origin: "https://stripe.com",
      "Stripe-Signature": stripe.webhooks.generateTestHeaderString({
        payload,
        secret,
      }),
    },
  });
}

describe("POST /api/stripe/webhook", () => {
  it("refuses a bad signature, records a good event once", async () => {
    const { betId, creator, joiner } = await activeBetOverHttp(server.url, 50);
    await joiner.client.post(`/api/bets/${betId}/propose-settlement`, {
      winnerId: joiner.user.id,
    });
    await creator.client.post(`/api/settlements/${betId}/approve`);
    const event = JSON.stringify({
      id: "evt_api_1",
      object: "event",
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: "pi_api_1",
          object: "payment_intent",
          amount: 5_000,
          status: "succeeded",
          metadata: { betId: String(betId), payerId: String(creator.user.id) },
        },
      },
    });
    expect((await post(event, "whsec_wrong")).status).toBe(400);
    expect(
      (await creator.client.get(`/api/settlements/${betId}`)).data
        .paymentStatus,
    ).toBe("pending");
    const ok = await post(event);
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({ recorded: true });
    const replay = await post(event);
    expect(replay.status).toBe(200);
    expect(replay.data).toMatchObject({ recorded: false });
    expect(
      (await creator.client.get(`/api/settlements/${betId}`)).data
        .paymentStatus,
    ).toBe("completed");
    const history = await joiner.client.get("/api/financial-history");
    expect(history.data.summary).toMatchObject({
      winnings: 50,
      fees: 1.25,
      netProfit: 48.75,
    });
    // The demo confirmation does not exist when Stripe is the provider.
    expect(
      (
        await creator.client.post("/api/payments/demo/confirm", {
          paymentIntentId: "pi_api_1",
        })
      ).status,
    ).toBe(404);
  });
});
