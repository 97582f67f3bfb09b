import type { Route } from "./+types/user-profile";
import { toUserJson } from "~/models/accounts/user.server";
import { updateProfile } from "~/models/accounts/profile.server";
import { apiOnly, methodNotAllowed, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// PATCH /api/user/profile: the changed fields (username, email, avatarUrl);
// a new email needs `currentPassword` too.
// A GET here is the wrong method, answered in the API's JSON shape.
export const loader = methodNotAllowed;

export function action({ request, context }: Route.ActionArgs) {
  return apiOnly("PATCH", request, async () => {
    const user = await requireApiUser({ request, context });
    const body = await readJson(request);
    const { user: updated } = await updateProfile({
      userId: user.id,
      input: body,
    });
    return Response.json(toUserJson(updated));
  });
}
