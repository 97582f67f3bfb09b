// GET /api/bets/{id}/messages → 200 [{id, authorId, body, photos, createdAt,
// deleted}], oldest first; POST /api/bets/{id}/messages {body} (JSON, or
// multipart with `body` and up to 4 `photo` files) → 201 the message. Only the bet's people and its referee: 403 to anyone else who
// may see the bet, 404 to anyone who may not (docs/api.md#messages).
import type { Route } from "./+types/bet-messages";
import {
  listMessages,
  postMessage,
  type MessageView,
} from "~/models/messages/messages.server";
import { api, apiOnly, readJson } from "~/framework/api.server";
import { readUploadedParts } from "~/framework/upload.server";
import type { RouteTraits } from "~/domain/route-traits";
import { requireBetRoute } from "~/routes/api/bet-id.server";
import { MESSAGE_BODY_LIMIT, PHOTO_MESSAGES } from "~/domain/messages";
import { href } from "react-router";

// Four photos of 10 MB and the text fit; anything larger is refused unread.
// A body over 1 MB from outside the primary region is forwarded to it, as
// an avatar is (docs/decisions/1063-forwarding-to-the-primary-region.md).
export const handle: RouteTraits = {
  // A message with its photos: the /api's content-type door lets it in.
  multipart: true,
  bodyLimit: {
    bytes: MESSAGE_BODY_LIMIT,
    message: PHOTO_MESSAGES.bodyTooLarge,
  },
};

export function messageJson(m: MessageView) {
  return {
    id: m.id,
    authorId: m.authorId,
    body: m.body,
    photos: m.photos.map((p) => ({
      id: p.id,
      url: href("/api/bets/:id/messages/:messageId/photos/:photoId", {
        id: String(m.betId),
        messageId: String(m.id),
        photoId: String(p.id),
      }),
      thumbnailUrl: `${href(
        "/api/bets/:id/messages/:messageId/photos/:photoId",
        {
          id: String(m.betId),
          messageId: String(m.id),
          photoId: String(p.id),
        },
      )}?size=thumb`,
      width: p.width,
      height: p.height,
    })),
    createdAt: m.createdAt.toISOString(),
    deleted: m.deleted,
  };
}

export function loader({ request, context, params }: Route.LoaderArgs) {
  return api(async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    const messages = await listMessages({ betId, userId: user.id });
    return Response.json(messages.map(messageJson));
  });
}

export function action({ request, context, params }: Route.ActionArgs) {
  return apiOnly("POST", request, async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    const multipart = /^multipart\/form-data/i.test(
      request.headers.get("Content-Type") ?? "",
    );
    let body: unknown;
    let photos: Uint8Array[] = [];
    if (multipart) {
      const parts = await readUploadedParts(request);
      body = parts.fields.get("body");
      photos = parts.files
        .filter((f) => f.name === "photo")
        .map((f) => f.bytes);
    } else body = (await readJson(request)).body;
    const message = await postMessage({
      betId,
      userId: user.id,
      body,
      photos,
    });
    return Response.json(messageJson(message), { status: 201 });
  });
}
