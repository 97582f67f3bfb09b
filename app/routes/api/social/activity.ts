import type { Route } from "./+types/activity";
import { listActivity, toActivityJson } from "~/models/activity.server";
import { api } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";

// GET /api/activity: my events, newest first.
export function loader({ request }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    return Response.json(listActivity(user.id).map(toActivityJson));
  });
}
