// POST /api/user/password {currentPassword, newPassword} → 204; every other
// session ends, this one stays. 400 field errors ('Current password is incorrect').
import type { Route } from "./+types/user-password";
import { changePassword } from "~/models/accounts/account-security.server";
import {
  currentSessionId,
  requireApiUser,
} from "~/models/accounts/session.server";
import { api, readJson } from "~/framework/api.server";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    await changePassword({
      user,
      input: await readJson(request),
      keepSessionId: await currentSessionId(request),
    });
    return new Response(null, { status: 204 });
  });
}
