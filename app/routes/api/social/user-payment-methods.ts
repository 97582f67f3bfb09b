import type { Route } from "./+types/user-payment-methods";
import { toUserJson } from "~/models/accounts/user.server";
import { setPaymentMethod } from "~/models/accounts/profile.server";
import { apiOnly, methodNotAllowed, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// POST /api/user/payment-methods {method, connected}: sets the flag (docs/product-rules.md#statuses).
// A GET here is the wrong method, answered in the API's JSON shape.
export const loader = methodNotAllowed;

export function action({ request, context }: Route.ActionArgs) {
  return apiOnly("POST", request, async () => {
    const user = await requireApiUser({ request, context });
    const input = await readJson(request);
    return Response.json(
      toUserJson(await setPaymentMethod({ userId: user.id, input })),
    );
  });
}
