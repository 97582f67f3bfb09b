import type { Route } from "./+types/users-search";
import { parseSearchQuery, searchUsers } from "~/models/friend.server";
import { toPublicUser } from "~/models/user.server";
import { withPaymentRecords } from "~/models/dues.server";
import { api } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";

// GET /api/users/search?q=: public users only (never emails), not yourself.
export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const query = parseSearchQuery(new URL(request.url).searchParams.get("q"));
    return Response.json(
      withPaymentRecords(
        searchUsers({ userId: user.id, query }).map((u) => toPublicUser(u)),
      ),
    );
  });
}
