// GET /api/bets/{id}/share-image: the 1200×630 PNG, ETag by bet version;
// `?w=720` the same card 720×378, for the bet page itself. With `?v=` naming
// the bet's current version the answer never changes, and the browser may
// keep it (docs/decisions/archive/0839-versioned-bet-page-preview.md); without it, or with an old one, it is the
// current card, checked again on every use.
import type { Route } from "./+types/share-image";
import { shareImageVersion } from "~/models/bets/share.server";
import { api } from "~/framework/api.server";
import {
  renderShareImage,
  shareImageEtag,
} from "~/models/bets/share-image.server";
import { requireSharePreview } from "./share-preview.server";
import type { RouteTraits } from "~/domain/route-traits";

// A `?code=` counts as a guess against the limits.
export const handle: RouteTraits = { writesOnGet: { whenQuery: "code" } };

export function loader(args: Route.LoaderArgs) {
  const { request } = args;
  return api(async () => {
    const preview = await requireSharePreview(args);
    const query = new URL(request.url).searchParams;
    const width = query.get("w") === "720" ? 720 : 1200;
    const etag = shareImageEtag(preview, width);
    const headers = {
      ETag: etag,
      // `private` even for a public bet's versioned card: only the viewer's
      // own browser keeps it, so a bet made private later is not served for
      // a year from a shared cache that saw it public.
      "Cache-Control":
        query.get("v") === shareImageVersion(preview)
          ? "private, max-age=31536000, immutable"
          : `${preview.visibility === "public" ? "public" : "private"}, max-age=0, must-revalidate`,
    };
    const match = request.headers.get("If-None-Match");
    if (match && match.split(/\s*,\s*/).includes(etag))
      return new Response(null, { status: 304, headers });
    const png = await renderShareImage(preview, width);
    return new Response(new Uint8Array(png), {
      headers: { ...headers, "Content-Type": "image/png" },
    });
  });
}
