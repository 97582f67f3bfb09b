// POST /api/passkeys/sign-in/options → 200 {options}: a fresh challenge for
// `navigator.credentials.get` (discoverable credentials, no username),
// bound to this browser by a signed cookie (docs/api.md#passkeys).
import type { Route } from "./+types/sign-in-options";
import { startPasskeySignIn } from "~/models/accounts/passkey-sign-in.server";
import { api, readJson } from "~/framework/api.server";
import type { RouteTraits } from "~/domain/route-traits";

// The first step of a sign-in: before any session, outside the key rule.
export const handle: RouteTraits = { session: "starts" };

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    await readJson(request);
    const { options, setCookie } = await startPasskeySignIn({ request });
    return Response.json(
      { options },
      { headers: { "Set-Cookie": setCookie, "Cache-Control": "no-store" } },
    );
  });
}
