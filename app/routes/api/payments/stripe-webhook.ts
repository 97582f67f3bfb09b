// POST /api/stripe/webhook: server.ts exempts this path from the cross-site
// and JSON content-type checks; the Stripe signature is the check here.
import type { Route } from "./+types/stripe-webhook";
import { getPaymentProvider } from "~/payments/provider.server";
import type { StripeProvider } from "~/payments/stripe.server";
import { handleStripeWebhook } from "~/models/stripe-webhook.server";
import { api } from "~/utils/api.server";
import type { BodyLimitHandle } from "~/utils/body-limits";
import { stripeKeys } from "~/utils/env.server";
import { notFound } from "~/utils/errors";

// Stripe's events carry whole objects and may pass the API's 16 KB.
export const handle: BodyLimitHandle = {
  bodyLimit: { bytes: 512 * 1024, message: "Request body is too large" },
};

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    const provider = getPaymentProvider();
    const secret = stripeKeys()?.webhookSecret;
    if (provider?.name !== "stripe" || !secret) throw notFound("Not found");
    return handleStripeWebhook(request, {
      stripe: (provider as StripeProvider).stripe,
      webhookSecret: secret,
    });
  });
}
