// GET/PUT /api/user/notification-preferences: {email: {kind: bool}, push: {kind: bool}}.
import type { Route } from "./+types/preferences";
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from "~/models/notifications/notification-preferences.server";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    return Response.json(await getNotificationPreferences(user.id));
  });
}

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    if (request.method !== "PUT") return methodNotAllowed();
    return Response.json(
      await updateNotificationPreferences(user.id, await readJson(request)),
    );
  });
}
