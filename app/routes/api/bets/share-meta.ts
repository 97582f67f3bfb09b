// GET /api/bets/{id}/share-meta: no session (crawlers are anonymous); a
// private bet only with its ?code= (docs/product-rules.md#private-bets), or for a signed-in viewer
// who may see it anyway.
import type { Route } from "./+types/share-meta";
import { shareMeta } from "~/models/bets/share.server";
import { api } from "~/framework/api.server";
import { requireSharePreview } from "./share-preview.server";
import type { RouteTraits } from "~/domain/route-traits";

// A `?code=` counts as a guess against the limits.
export const handle: RouteTraits = { writesOnGet: { whenQuery: "code" } };

export function loader(args: Route.LoaderArgs) {
  const { request } = args;
  return api(async () => {
    const preview = await requireSharePreview(args);
    return Response.json(shareMeta(preview, request));
  });
}
