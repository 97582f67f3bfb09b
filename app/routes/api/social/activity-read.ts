import type { Route } from "./+types/activity-read";
import { markAllActivityRead } from "~/models/social/activity.server";
import { apiOnly, methodNotAllowed, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// POST /api/activity/read: marks every event read (204). Never a GET.
// A GET here is the wrong method, answered in the API's JSON shape.
export const loader = methodNotAllowed;

export function action({ request, context }: Route.ActionArgs) {
  return apiOnly("POST", request, async () => {
    const user = await requireApiUser({ request, context });
    await readJson(request);
    await markAllActivityRead(user.id);
    return new Response(null, { status: 204 });
  });
}
