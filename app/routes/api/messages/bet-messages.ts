// GET /api/bets/{id}/messages → 200 [{id, authorId, body, photos, createdAt,
// deleted}], oldest first; POST /api/bets/{id}/messages {body} → 201 the
// message. Only the bet's people and its referee: 403 to anyone else who
// may see the bet, 404 to anyone who may not (docs/api.md#messages).
import type { Route } from "./+types/bet-messages";
import {
  listMessages,
  postMessage,
  type MessageView,
} from "~/models/messages/messages.server";
import { api, apiOnly, readJson } from "~/utils/api.server";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function messageJson(m: MessageView) {
  return {
    id: m.id,
    authorId: m.authorId,
    body: m.body,
    photos: [],
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
    const input = await readJson(request);
    const message = await postMessage({
      betId,
      userId: user.id,
      body: input.body,
    });
    return Response.json(messageJson(message), { status: 201 });
  });
}
