import type { Route } from "./+types/users-search";
import { searchUsers } from "~/models/social/friend-lists.server";
import { parseSearchQuery } from "~/models/social/friend-input.server";
import { toPublicUser } from "~/models/accounts/user.server";
import { withPaymentRecords } from "~/models/payments/dues.server";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

// GET /api/users/search?q=: public users only (never emails), not yourself.
export function loader({ request, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const query = parseSearchQuery(new URL(request.url).searchParams.get("q"));
    return Response.json(
      await withPaymentRecords(
        (await searchUsers({ userId: user.id, query })).map((u) =>
          toPublicUser(u),
        ),
      ),
    );
  });
}
