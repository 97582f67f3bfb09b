import type { Route } from "./+types/activity";
import { listActivity, toActivityJson } from "~/models/social/activity.server";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// GET /api/activity: my events, newest first.
export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    return Response.json((await listActivity(user.id)).map(toActivityJson));
  });
}
