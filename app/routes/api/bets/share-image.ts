// GET /api/bets/{id}/share-image: the 1200×630 PNG, ETag by bet version;
// `?w=720` the same card 720×378, for the bet page itself.
import type { Route } from "./+types/share-image";
import { api } from "~/utils/api.server";
import { renderShareImage, shareImageEtag } from "~/utils/share-image.server";
import { requireSharePreview } from "./share-preview.server";

export function loader(args: Route.LoaderArgs) {
  const { request } = args;
  return api(async () => {
    const preview = await requireSharePreview(args);
    const width =
      new URL(request.url).searchParams.get("w") === "720" ? 720 : 1200;
    const etag = shareImageEtag(preview, width);
    const headers = {
      ETag: etag,
      "Cache-Control": `${preview.visibility === "public" ? "public" : "private"}, max-age=0, must-revalidate`,
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
