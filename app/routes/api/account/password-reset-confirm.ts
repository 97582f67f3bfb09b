// POST /api/password-reset/confirm {token, password} → 204, every old session
// ended and this client signed in; 400 'This reset link is invalid or has
// expired.' or password field errors.
import type { Route } from "./+types/password-reset-confirm";
import { confirmPasswordReset } from "~/models/accounts/password-reset.server";
import { startSession } from "~/models/accounts/session.server";
import { api, readJson } from "~/framework/api.server";

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    const { token, password } = await readJson(request);
    const user = await confirmPasswordReset({ token, password });
    return new Response(null, {
      status: 204,
      headers: await startSession(request, user.id),
    });
  });
}
