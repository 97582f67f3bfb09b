// GET /api/user/sessions → 200 [{id, createdAt, lastSeenAt, userAgent, current}].
import type { Route } from "./+types/user-sessions";
import { sessionsJson } from "~/models/accounts/account-security.server";
import {
  currentSessionId,
  requireApiUser,
} from "~/models/accounts/session.server";
import { api } from "~/framework/api.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    return Response.json(
      await sessionsJson(user.id, await currentSessionId(request)),
    );
  });
}
