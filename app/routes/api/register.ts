import type { Route } from "./+types/register";
import { signUp } from "~/models/accounts/sign-in.server";
import { toUserJson } from "~/models/accounts/user.server";
import { api, readJson } from "~/utils/api.server";
import { startSession } from "~/models/accounts/session.server";
import { clientAddressContext } from "~/framework/request-context.server";

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    const user = await signUp({
      input: await readJson(request),
      clientAddress: context.get(clientAddressContext),
      acceptLanguage: request.headers.get("Accept-Language"),
    });
    return Response.json(toUserJson(user), {
      status: 201,
      headers: await startSession(request, user.id),
    });
  });
}
