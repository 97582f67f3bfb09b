// GET /api/user/passkeys → 200 [{id, name, createdAt, lastUsedAt}].
// POST /api/user/passkeys {response, name?} → 201 {id, name, createdAt,
// lastUsedAt}: the browser's answer to the options of
// POST /api/user/passkeys/options (docs/api.md#passkeys).
import type { Route } from "./+types/user-passkeys";
import { listPasskeys, passkeyJson } from "~/models/accounts/passkeys.server";
import { finishPasskeyRegistration } from "~/models/accounts/passkey-registration.server";
import { clearChallengeCookie } from "~/models/accounts/passkey-challenges.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    return Response.json((await listPasskeys(user.id)).map(passkeyJson));
  });
}

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    if (request.method !== "POST") return methodNotAllowed();
    const passkey = await finishPasskeyRegistration({
      user,
      input: await readJson(request),
      cookieHeader: request.headers.get("Cookie"),
      request,
    });
    return Response.json(passkeyJson(passkey), {
      status: 201,
      headers: { "Set-Cookie": await clearChallengeCookie() },
    });
  });
}
