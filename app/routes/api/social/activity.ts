import type { Route } from "./+types/activity";
import { listActivity, toActivityJson } from "~/models/activity.server";
import { api, requireApiUser } from "~/utils/api.server";

// GET /api/activity: my events, newest first.
export function loader({ request }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    return Response.json(listActivity(user.id).map(toActivityJson));
  });
}
