// GET, PUT and DELETE /api/bets/{id} (docs/api.md).
import type { Route } from "./+types/bet";
import { getBetForViewer } from "~/models/bets/bet-access.server";
import { deleteBet, updateBet } from "~/models/bets/bet.server";
import { parseBetInput } from "~/models/bets/bet-input.server";
import { toBetJson } from "~/routes/api/json";
import { requireBetRoute } from "~/routes/api/bet-id.server";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";

export function loader(args: Route.LoaderArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute(args);
    const bet = await getBetForViewer({ betId, userId: user.id });
    return Response.json(toBetJson(bet));
  });
}

export function action(args: Route.ActionArgs) {
  const { request } = args;
  return api(async () => {
    const { user, betId } = await requireBetRoute(args);
    if (request.method === "PUT") {
      // No currency sent: the bet keeps its own.
      const input = parseBetInput(
        await readJson(request),
        "edit",
        Date.now(),
        (await getBetForViewer({ betId, userId: user.id })).currency,
      );
      const bet = await updateBet({ betId, userId: user.id, input });
      return Response.json(toBetJson(bet));
    }
    if (request.method === "DELETE") {
      await deleteBet({ betId, userId: user.id });
      return new Response(null, { status: 204 });
    }
    return methodNotAllowed();
  });
}
