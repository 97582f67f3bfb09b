import type { Route } from "./+types/friend-respond";
import {
  acceptFriendRequest,
  declineFriendRequest,
} from "~/models/social/friend.server";
import { parseFriendId } from "~/models/social/friend-input.server";
import {
  apiOnly,
  jsonError,
  methodNotAllowed,
  readJson,
} from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// POST /api/friends/accept and /api/friends/decline {friendId}: the
// requester's user id. 200; 404 when there is no such pending request.
// A GET here is the wrong method, answered in the API's JSON shape.
export const loader = methodNotAllowed;

export function action({ request, context, params }: Route.ActionArgs) {
  return apiOnly("POST", request, async () => {
    const user = await requireApiUser({ request, context });
    if (params.decision !== "accept" && params.decision !== "decline")
      return jsonError(404, "Not found");
    const requesterId = parseFriendId(await readJson(request));
    if (params.decision === "accept") {
      await acceptFriendRequest({ userId: user.id, requesterId });
      return Response.json({ friendId: requesterId, status: "accepted" });
    }
    await declineFriendRequest({ userId: user.id, requesterId });
    return Response.json({ friendId: requesterId, status: "declined" });
  });
}
