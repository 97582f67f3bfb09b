import type { Route } from "./+types/logout";
import { api, readJson } from "~/framework/api.server";
import { endSession } from "~/models/accounts/session.server";

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    await readJson(request);
    return new Response(null, {
      status: 204,
      headers: { "Set-Cookie": await endSession(request) },
    });
  });
}
