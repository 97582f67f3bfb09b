// GET /api/bets/{id}/share-meta: no session (crawlers are anonymous); a
// private bet only with its ?code= (ruling 13a), or for a signed-in viewer
// who may see it anyway.
import type { Route } from "./+types/share-meta";
import { BET_NOT_FOUND } from "~/models/bet.server";
import { getSharePreview, shareMeta } from "~/models/share.server";
import { api, parseId } from "~/utils/api.server";
import { notFound } from "~/utils/errors";
import { getUser } from "~/utils/session.server";

export function loader({ request, params, context }: Route.LoaderArgs) {
  return api(async () => {
    const id = parseId(params.id);
    const code = new URL(request.url).searchParams.get("code");
    // No session is needed; a signed-in participant needs no ?code= either,
    // and a signed-in guesser's misses count against the account too.
    const viewer = await getUser(request);
    const preview =
      id === null
        ? null
        : getSharePreview(
            id,
            code,
            {
              userId: viewer?.id ?? null,
              clientAddress: context.clientAddress,
            },
            viewer?.id ?? null,
          );
    if (!preview) throw notFound(BET_NOT_FOUND);
    return Response.json(shareMeta(preview, request));
  });
}
