// POST /api/passkeys/sign-in {response, returnTo?} → 200 {user, redirectTo}:
// an ordinary session, as POST /api/login makes; 401 for a passkey that is
// unknown, fails, or whose counter went backwards; 400 for a spent or
// expired challenge; 429 in the password's limits (docs/api.md#passkeys).
import type { Route } from "./+types/sign-in";
import { signInWithPasskey } from "~/models/accounts/sign-in.server";
import { clearChallengeCookie } from "~/models/accounts/passkey-challenges.server";
import { toUserJson } from "~/models/accounts/user.server";
import { startSession } from "~/models/accounts/session.server";
import { api, readJson } from "~/framework/api.server";
import { clientAddressContext } from "~/framework/request-context.server";
import { safeRedirect } from "~/utils/safe-redirect";
import type { RouteTraits } from "~/domain/route-traits";

// Makes the session a key would belong to: outside the key rule.
export const handle: RouteTraits = { session: "starts" };

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const body = (await readJson(request)) as
      { response?: unknown; returnTo?: unknown } | undefined;
    const { user, deviceCookie } = await signInWithPasskey({
      response: body?.response,
      clientAddress: context.get(clientAddressContext),
      cookieHeader: request.headers.get("Cookie"),
      request,
    });
    const headers = await startSession(request, user.id);
    headers.append("Set-Cookie", deviceCookie);
    headers.append("Set-Cookie", await clearChallengeCookie());
    return Response.json(
      {
        user: toUserJson(user),
        redirectTo: safeRedirect(
          typeof body?.returnTo === "string" ? body.returnTo : null,
          "/",
        ),
      },
      { headers },
    );
  });
}
