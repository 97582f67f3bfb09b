// POST /api/user/sessions/revoke-others → 204: every session but this one ends.
import type { Route } from "./+types/user-sessions-revoke-others";
import { signOutOtherSessions } from "~/models/accounts/account-security.server";
import {
  currentSessionId,
  requireApiUser,
} from "~/models/accounts/session.server";
import { api, readJson } from "~/framework/api.server";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    await readJson(request);
    await signOutOtherSessions(user.id, await currentSessionId(request));
    return new Response(null, { status: 204 });
  });
}
