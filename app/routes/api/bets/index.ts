// GET /api/bets: the public feed (no session needed). POST /api/bets: create.
import type { Route } from "./+types/index";
import { createBet } from "~/models/bets/bet.server";
import { getBetView } from "~/models/bets/bet-access.server";
import { listPublicBets } from "~/models/bets/bet-lists.server";
import { parseBetInput } from "~/models/bets/bet-input.server";
import { toBetJson } from "~/routes/api/json";
import { api, methodNotAllowed, readJson } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";

export function loader() {
  return api(async () =>
    Response.json((await listPublicBets()).map(toBetJson)),
  );
}

export function action({ request, context }: Route.ActionArgs) {
  return api(async () => {
    if (request.method !== "POST") return methodNotAllowed();
    const user = await requireApiUser({ request, context });
    // No currency sent: the person's own (docs/api.md#bets).
    const input = parseBetInput(
      await readJson(request),
      "create",
      Date.now(),
      user.currency,
    );
    const bet = await createBet({ creatorId: user.id, input });
    return Response.json(toBetJson((await getBetView(bet.id))!), {
      status: 201,
    });
  });
}
