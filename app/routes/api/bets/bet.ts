// GET, PUT and DELETE /api/bets/{id} (DESIGN §3a).
import type { Route } from "./+types/bet";
import { getBetForViewer } from "~/models/bet-access.server";
import { deleteBet, updateBet } from "~/models/bet.server";
import { parseBetInput } from "~/models/bet-input.server";
import { toBetJson } from "~/routes/api/json";
import { api, readJson } from "~/utils/api.server";
import { betIdOf } from "~/routes/api/bet-id.server";
import { requireApiUser } from "~/models/session.server";

export function loader({ request, context, params }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const bet = getBetForViewer({ betId: betIdOf(params.id), userId: user.id });
    return Response.json(toBetJson(bet));
  });
}

export function action({ request, context, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const betId = betIdOf(params.id);
    if (request.method === "PUT") {
      const input = parseBetInput(await readJson(request), "edit");
      const bet = updateBet({ betId, userId: user.id, input });
      return Response.json(toBetJson(bet));
    }
    if (request.method === "DELETE") {
      deleteBet({ betId, userId: user.id });
      return new Response(null, { status: 204 });
    }
    return Response.json({ error: "Method not allowed" }, { status: 405 });
  });
}
