// POST /api/create-payment-intent {betId}: 200 {clientSecret, amount, paymentIntentId}.
import { z } from "zod";
import type { Route } from "./+types/create-intent";
import { createPaymentIntent } from "~/models/payments/payment.server";
import { api, parseJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { minorToUnits } from "~/domain/currency";

const Body = z.object({
  betId: z.coerce
    .number({ error: "betId is required." })
    .int("betId is required.")
    .positive("betId is required."),
});

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const { betId } = await parseJson(request, Body, "betId is required.");
    const intent = await createPaymentIntent({ betId, userId: user.id });
    return Response.json({
      clientSecret: intent.clientSecret,
      amount: minorToUnits(intent.amountCents, intent.currency),
      currency: intent.currency,
      paymentIntentId: intent.intentId,
    });
  });
}
