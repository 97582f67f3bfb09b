// GET /api/bets/{id}/messages/{messageId}/photos/{photoId}[?size=thumb] →
// 200 image/webp to the bet's people, `Cache-Control: private`; 404 to
// anyone else (docs/api.md#messages).
import type { Route } from "./+types/bet-message-photo";
import {
  PHOTO_NOT_FOUND,
  photoForViewer,
} from "~/models/messages/messages.server";
import { api } from "~/framework/api.server";
import { parseId } from "~/utils/validation";
import { notFound } from "~/utils/errors";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function loader({ request, context, params }: Route.LoaderArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute(
      { request, context, params },
      PHOTO_NOT_FOUND,
    );
    const messageId = parseId(params.messageId);
    const photoId = parseId(params.photoId);
    if (messageId === null || photoId === null) throw notFound(PHOTO_NOT_FOUND);
    const size =
      new URL(request.url).searchParams.get("size") === "thumb"
        ? "thumb"
        : "full";
    const photo = await photoForViewer({
      betId,
      messageId,
      photoId,
      userId: user.id,
      size,
    });
    return new Response(new Uint8Array(photo.data), {
      headers: {
        "Content-Type": photo.contentType,
        // Only the bet's people ever get it: no shared cache keeps it.
        "Cache-Control": "private, max-age=86400",
        "Content-Length": String(photo.data.byteLength),
      },
    });
  });
}
