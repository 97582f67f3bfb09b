// POST /api/payments/demo/confirm {paymentIntentId, cardNumber, expiry, cvc}:
// the demo provider's stand-in for Stripe.js confirming a card in the
// browser, for API clients and tests. 200 {status: "succeeded"}, 400 bad
// card fields, 402 'Your card was declined.'. Demo mode only.
import type { Route } from "./+types/demo-confirm";
import { confirmDemoPayment } from "~/models/payments/pay-bet.server";
import { api, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { isDemoMode } from "~/utils/env.server";
import { invalid, notFound } from "~/utils/errors";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    if (!isDemoMode) throw notFound("Not found");
    const body = await readJson(request);
    const intentId = body.paymentIntentId;
    if (typeof intentId !== "string" || intentId.length === 0)
      throw invalid("paymentIntentId is required.", {
        paymentIntentId: ["paymentIntentId is required."],
      });
    const result = await confirmDemoPayment({
      intentId,
      userId: user.id,
      card: body,
    });
    return Response.json(result);
  });
}
