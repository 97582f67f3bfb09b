// POST /api/password-reset {login} → 202 whether or not an account matches
// (docs/product-rules.md#accounts); 400 when no login was given; 429 past a limit.
import type { Route } from "./+types/password-reset";
import { requestPasswordReset } from "~/models/accounts/password-reset.server";
import { api, readJson } from "~/framework/api.server";
import { clientAddressContext } from "~/framework/request-context.server";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const { login } = await readJson(request);
    await requestPasswordReset({
      login,
      clientAddress: context.get(clientAddressContext),
    });
    return new Response(null, { status: 202 });
  });
}
