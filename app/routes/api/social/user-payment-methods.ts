import type { Route } from "./+types/user-payment-methods";
import { toUserJson } from "~/models/user.server";
import { setPaymentMethod } from "~/models/profile.server";
import { api, jsonError, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";

// POST /api/user/payment-methods {method, connected}: sets the flag (SPEC §4).
// A GET here is the wrong method, answered in the API's JSON shape.
export function loader() {
  return jsonError(405, "Method not allowed");
}

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    if (request.method !== "POST") return jsonError(405, "Method not allowed");
    const user = await requireApiUser(request);
    const input = await readJson(request);
    return Response.json(
      toUserJson(setPaymentMethod({ userId: user.id, input })),
    );
  });
}
