// GET /api/bets/{id}/share-meta: no session (crawlers are anonymous); a
// private bet only with its ?code= (ruling 13a).
import type { Route } from "./+types/share-meta";
import { BET_NOT_FOUND } from "~/models/bet.server";
import { getSharePreview, shareMeta } from "~/models/share.server";
import { api, parseId } from "~/utils/api.server";
import { notFound } from "~/utils/errors";
import { getUser } from "~/utils/session.server";

export function loader({ request, params }: Route.LoaderArgs) {
  return api(async () => {
    const id = parseId(params.id);
    const code = new URL(request.url).searchParams.get("code");
    // No session is needed; a signed-in participant needs no ?code= either.
    const viewer = code ? null : await getUser(request);
    const preview =
      id === null ? null : getSharePreview(id, code, viewer?.id ?? null);
    if (!preview) throw notFound(BET_NOT_FOUND);
    return Response.json(shareMeta(preview, request));
  });
}
