// GET /api/bets/code/{code}: opening by code records access (docs/product-rules.md#private-bets).
import type { Route } from "./+types/code";
import { openBetByCode } from "~/models/bets/bet-access.server";
import { toBetJson } from "~/routes/api/json";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { clientAddressContext } from "~/framework/request-context.server";
import type { RouteTraits } from "~/domain/route-traits";

// Opening a bet by its code counts a miss against the guess limits.
export const handle: RouteTraits = { writesOnGet: true };

export function loader({ request, params, context }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const bet = await openBetByCode({
      code: params.code ?? "",
      userId: user.id,
      clientAddress: context.get(clientAddressContext),
    });
    return Response.json(toBetJson(bet));
  });
}
