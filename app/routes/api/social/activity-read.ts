import type { Route } from "./+types/activity-read";
import { markAllActivityRead } from "~/models/activity.server";
import { api, jsonError, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";

// POST /api/activity/read: marks every event read (204). Never a GET.
// A GET here is the wrong method, answered in the API's JSON shape.
export function loader() {
  return jsonError(405, "Method not allowed");
}

export function action({ request }: Route.ActionArgs) {
  return api(async () => {
    if (request.method !== "POST") return jsonError(405, "Method not allowed");
    const user = await requireApiUser(request);
    await readJson(request);
    markAllActivityRead(user.id);
    return new Response(null, { status: 204 });
  });
}
