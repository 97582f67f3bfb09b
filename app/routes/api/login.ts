import type { Route } from "./+types/login";
import { signIn } from "~/models/accounts/sign-in.server";
import { toUserJson } from "~/models/accounts/user.server";
import { api, readJson } from "~/framework/api.server";
import { startSession } from "~/models/accounts/session.server";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";

// Makes the session a key would belong to: outside the key rule.
export const handle: RouteTraits = { session: "starts" };

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const { user, deviceCookie } = await signIn({
      input: await readJson(request),
      clientAddress: context.get(clientAddressContext),
      cookieHeader: request.headers.get("Cookie"),
    });
    const headers = await startSession(request, user.id);
    headers.append("Set-Cookie", deviceCookie);
    return Response.json(toUserJson(user), { headers });
  });
}
