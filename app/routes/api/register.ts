import { pageLanguage } from "~/framework/language.server";
import type { Route } from "./+types/register";
import { signUp } from "~/models/accounts/sign-in.server";
import { toUserJson } from "~/models/accounts/user.server";
import { api, readJson } from "~/framework/api.server";
import { startSession } from "~/models/accounts/session.server";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";

// Makes the session a key would belong to: outside the key rule.
export const handle: RouteTraits = { session: "starts" };

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await signUp({
      input: await readJson(request),
      clientAddress: context.get(clientAddressContext),
      acceptLanguage: request.headers.get("Accept-Language"),
      // The page's language (the picker's cookie, else the browser's).
      language: pageLanguage(request),
    });
    return Response.json(toUserJson(user), {
      status: 201,
      headers: await startSession(request, user.id),
    });
  });
}
