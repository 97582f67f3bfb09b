import type { Route } from "./+types/friends";
import { sendFriendRequest } from "~/models/social/friend.server";
import { listFriends, toFriendJson } from "~/models/social/friend-lists.server";
import { parseFriendId } from "~/models/social/friend-input.server";
import { withFriendPaymentRecords } from "~/models/payments/dues.server";
import { api, apiOnly, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// GET /api/friends: [{id, friend}] (plus the head-to-head record).
export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    return Response.json(
      (await withFriendPaymentRecords(await listFriends(user.id))).map(
        toFriendJson,
      ),
    );
  });
}

// POST /api/friends {friendId}: send a request (201).
export function action({ request, context }: Route.ActionArgs) {
  return apiOnly("POST", request, async () => {
    const user = await requireApiUser({ request, context });
    const friendId = parseFriendId(await readJson(request));
    const row = await sendFriendRequest({ userId: user.id, friendId });
    return Response.json(
      { id: row.id, friendId, status: row.status },
      { status: 201 },
    );
  });
}
