// POST /api/user/passkeys/options {password?} → 200 {options}: a challenge
// for `navigator.credentials.create`, bound to this browser. Needs the
// password, or a sign-in within the last 10 minutes (400 password_needed);
// 409 at 10 passkeys (docs/api.md#passkeys).
import type { Route } from "./+types/user-passkeys-options";
import { startPasskeyRegistration } from "~/models/accounts/passkey-registration.server";
import {
  currentSessionId,
  requireApiUser,
} from "~/models/accounts/session.server";
import { api, readJson } from "~/framework/api.server";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const { options, setCookie } = await startPasskeyRegistration({
      user,
      input: await readJson(request),
      sessionId: await currentSessionId(request),
      request,
    });
    return Response.json(
      { options },
      { headers: { "Set-Cookie": setCookie, "Cache-Control": "no-store" } },
    );
  });
}
