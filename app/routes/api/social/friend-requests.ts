import type { Route } from "./+types/friend-requests";
import {
  listIncomingRequests,
  toFriendJson,
} from "~/models/social/friend-lists.server";
import { withFriendPaymentRecords } from "~/models/payments/dues.server";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// GET /api/friend-requests: the requests others sent me, [{id, friend}].
export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    return Response.json(
      (await withFriendPaymentRecords(await listIncomingRequests(user.id))).map(
        toFriendJson,
      ),
    );
  });
}
