import type { Route } from "./+types/logout";
import { api, readJson } from "~/framework/api.server";
import { endSession } from "~/models/accounts/session.server";
import type { RouteTraits } from "~/domain/route-traits";

// Ends the session: outside the key rule, and the service worker forgets
// the kept pages as it is sent.
export const handle: RouteTraits = { session: "ends" };

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    await readJson(request);
    return new Response(null, {
      status: 204,
      headers: { "Set-Cookie": await endSession(request) },
    });
  });
}
