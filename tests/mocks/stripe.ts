// MSW handlers that answer Stripe's HTTP API (docs/architecture.md#stack: no network in
// tests). A tiny in-memory Stripe: intents keyed by idempotency key, as
// Stripe does, and a way for a test to make an intent succeed.
import { http, HttpResponse } from "msw";

export type FakeIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
};

export const stripeState = {
  intents: new Map<string, FakeIntent>(),
  byIdempotencyKey: new Map<string, string>(),
  idempotencyKeys: [] as (string | null)[],
  sessions: [] as {
    id: string;
    url: string;
    metadata: Record<string, string>;
  }[],
  reset() {
    this.intents.clear();
    this.byIdempotencyKey.clear();
    this.idempotencyKeys = [];
    this.sessions = [];
  },
  succeed(id: string) {
    const pi = this.intents.get(id);
    if (pi) pi.status = "succeeded";
  },
};

function metadataOf(form: URLSearchParams) {
  const metadata: Record<string, string> = {};
  for (const [key, value] of form) {
    const m = /^metadata\[(.+)\]$/.exec(key);
    if (m?.[1]) metadata[m[1]] = value;
  }
  return metadata;
}

let seq = 0;

export const stripeHandlers = [
  http.post(
    "https://api.stripe.com/v1/payment_intents",
    async ({ request }) => {
      const key = request.headers.get("Idempotency-Key");
      stripeState.idempotencyKeys.push(key);
      if (key && stripeState.byIdempotencyKey.has(key)) {
        return HttpResponse.json(
          stripeState.intents.get(stripeState.byIdempotencyKey.get(key)!),
        );
      }
      const form = new URLSearchParams(await request.text());
      seq += 1;
      const id = `pi_test_${seq}`;
      const intent: FakeIntent = {
        id,
        object: "payment_intent",
        amount: Number(form.get("amount")),
        currency: form.get("currency") ?? "usd",
        status: "requires_payment_method",
        client_secret: `${id}_secret_abc`,
        metadata: metadataOf(form),
      };
      stripeState.intents.set(id, intent);
      if (key) stripeState.byIdempotencyKey.set(key, id);
      return HttpResponse.json(intent);
    },
  ),
  http.get("https://api.stripe.com/v1/payment_intents/:id", ({ params }) => {
    const intent = stripeState.intents.get(String(params.id));
    if (!intent)
      return HttpResponse.json(
        {
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            message: "No such payment_intent",
          },
        },
        { status: 404 },
      );
    return HttpResponse.json(intent);
  }),
  http.post(
    "https://api.stripe.com/v1/checkout/sessions",
    async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      seq += 1;
      const session = {
        id: `cs_test_${seq}`,
        object: "checkout.session",
        url: `https://checkout.stripe.com/c/pay/cs_test_${seq}`,
        metadata: metadataOf(form),
      };
      stripeState.sessions.push(session);
      return HttpResponse.json(session);
    },
  ),
];
