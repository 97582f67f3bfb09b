// GET /api/user/bets/created|joined|completed: my lists, each bet with `type`.
import type { Route } from "./+types/user-bets";
import { listUserBets, type BetListKind } from "~/models/bets/bet-lists.server";
import { toBetListJson } from "~/routes/api/json";
import { api } from "~/framework/api.server";
import { requireApiUser } from "~/models/accounts/session.server";
import { notFound } from "~/utils/errors";

const KINDS: BetListKind[] = ["created", "joined", "completed"];

export function loader({ request, context, params }: Route.LoaderArgs) {
  return api(async () => {
    const user = await requireApiUser({ request, context });
    const kind = KINDS.find((k) => k === params.kind);
    if (!kind) throw notFound("Not found");
    return Response.json(
      (await listUserBets(user.id, kind)).map((b) => toBetListJson(b, user.id)),
    );
  });
}
