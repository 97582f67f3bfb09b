// GET /api/push/public-key → {publicKey}: the VAPID key a browser subscribes with.
import type { Route } from "./+types/push-key";
import { pushPublicKey } from "~/models/notifications/push-subscriptions.server";
import { api } from "~/framework/api.server";
import { notFound } from "~/utils/errors";

export function loader(_: Route.LoaderArgs) {
  return api(() => {
    const publicKey = pushPublicKey();
    if (!publicKey) throw notFound("Push notifications are not set up.");
    return Response.json({ publicKey });
  });
}
