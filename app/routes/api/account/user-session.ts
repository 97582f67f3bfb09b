// DELETE /api/user/sessions/{id} → 204; 404 when it is not one of yours.
import type { Route } from "./+types/user-session";
import { signOutSession } from "~/models/accounts/account-security.server";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

export function action({ request, context, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    if (request.method !== "DELETE") return methodNotAllowed();
    await readJson(request);
    await signOutSession(user.id, params.id);
    return new Response(null, { status: 204 });
  });
}
