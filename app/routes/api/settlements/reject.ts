// POST /api/settlements/{id}/reject {rejectionReason?}: 204, either party.
import type { Route } from "./+types/reject";
import {
  SETTLEMENT_NOT_FOUND,
  parseRejectionInput,
} from "~/models/settlement-rules.server";
import { rejectSettlement } from "~/models/settlement.server";
import { api, parseId, readJson } from "~/utils/api.server";
import { requireApiUser } from "~/models/session.server";
import { notFound } from "~/utils/errors";

export function action({ request, params }: Route.ActionArgs) {
  return api(async () => {
    const user = await requireApiUser(request);
    const betId = parseId(params.id);
    if (betId === null) throw notFound(SETTLEMENT_NOT_FOUND);
    const { reason } = parseRejectionInput(await readJson(request));
    rejectSettlement({ betId, userId: user.id, reason });
    return new Response(null, { status: 204 });
  });
}
