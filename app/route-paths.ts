// Paths that code outside the route table relies on, written once:
// app/routes.ts spells these routes with these constants and server/serve.ts's
// middleware reads them, so renaming a route cannot silently drop the
// middleware that belongs to it. tests/api/route-paths.test.ts fails if one
// leaves the table or server/serve.ts spells an /api path by hand
// (docs/decisions/0936-route-paths-one-source.md). Rate limits are not
// here: they attach to the act, not to a URL
// (docs/decisions/0500-limits-attach-to-the-act.md).

/** The JSON API's prefix: JSON answers, the JSON content-type door. */
export const API_PREFIX = "api";

export const apiPath = (route: string) => `/${API_PREFIX}/${route}`;

/**
 * Inside /api, the calls whose authority is a signature or a token rather
 * than a session: Stripe's webhook and the one-click unsubscribe a mail
 * provider POSTs as a form (docs/product-rules.md#notifications). No cross-site check, any content type.
 */
export const SIGNED_API_ROUTES = {
  stripeWebhook: "stripe/webhook",
  unsubscribe: "unsubscribe",
} as const;

export const SIGNED_API_PATHS: readonly string[] =
  Object.values(SIGNED_API_ROUTES).map(apiPath);

/** The health check: answered by the machine it reaches, in any region. */
export const HEALTH_PATH = "/healthz";
