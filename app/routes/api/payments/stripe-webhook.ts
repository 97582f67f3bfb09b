// POST /api/stripe/webhook: server/serve.ts exempts this path from the cross-site
// and JSON content-type checks; the provider's signature is the check here
// (404 when the provider has no webhook: demo mode, or no webhook secret).
import type { Route } from "./+types/stripe-webhook";
import { handlePaymentWebhook } from "~/models/payments/payment-webhook.server";
import { api } from "~/framework/api.server";
import type { RouteTraits } from "~/domain/route-traits";

// Stripe's events carry whole objects and may pass the API's 16 KB.
export const handle: RouteTraits = {
  bodyLimit: { bytes: 512 * 1024, message: "Request body is too large" },
};

export function action({ request }: Route.ActionArgs) {
  return api(() => handlePaymentWebhook(request));
}
