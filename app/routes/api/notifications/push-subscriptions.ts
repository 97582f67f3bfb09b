// POST /api/push-subscriptions {endpoint, keys: {p256dh, auth}} → 201 (200 when known);
// DELETE {endpoint} → 204, 404 when it is not one of yours.
import type { Route } from "./+types/push-subscriptions";
import {
  deletePushSubscription,
  savePushSubscription,
} from "~/models/notifications/push-subscriptions.server";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const body = await readJson(request);
    if (request.method === "POST") {
      const { created } = await savePushSubscription(user.id, body);
      return Response.json({ ok: true }, { status: created ? 201 : 200 });
    }
    if (request.method === "DELETE") {
      await deletePushSubscription(user.id, body.endpoint);
      return new Response(null, { status: 204 });
    }
    return methodNotAllowed();
  });
}
