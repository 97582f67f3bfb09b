import type { Route } from "./+types/user";
import { closeAccount } from "~/models/accounts/account.server";
import { endSession, requireApiUser } from "~/models/accounts/session.server";
import { toUserJson } from "~/models/accounts/user.server";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";

export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () =>
    Response.json(toUserJson(await requireApiUser({ request, context }))),
  );
}

// DELETE /api/user {password}: close the account (docs/product-rules.md#your-data).
export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    if (request.method !== "DELETE") return methodNotAllowed();
    const user = await requireApiUser({ request, context });
    const body = await readJson(request);
    await closeAccount({ userId: user.id, input: body });
    return new Response(null, {
      status: 204,
      headers: { "Set-Cookie": await endSession(request) },
    });
  });
}
