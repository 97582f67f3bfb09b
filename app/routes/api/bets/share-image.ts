// GET /api/bets/{id}/share-image: the 1200×630 PNG, ETag by bet version.
import type { Route } from "./+types/share-image";
import { BET_NOT_FOUND } from "~/models/bet.server";
import { getSharePreview } from "~/models/share.server";
import { api, parseId } from "~/utils/api.server";
import { notFound } from "~/utils/errors";
import { getUser } from "~/utils/session.server";
import { renderShareImage, shareImageEtag } from "~/utils/share-image.server";

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
    const etag = shareImageEtag(preview);
    const headers = {
      ETag: etag,
      "Cache-Control": `${preview.visibility === "public" ? "public" : "private"}, max-age=0, must-revalidate`,
    };
    const match = request.headers.get("If-None-Match");
    if (match && match.split(/\s*,\s*/).includes(etag))
      return new Response(null, { status: 304, headers });
    const png = await renderShareImage(preview);
    return new Response(new Uint8Array(png), {
      headers: { ...headers, "Content-Type": "image/png" },
    });
  });
}
