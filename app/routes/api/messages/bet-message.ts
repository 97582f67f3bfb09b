// DELETE /api/bets/{id}/messages/{messageId} → 204: the author, within 10
// minutes (409 after, 403 for someone else's); 'Message deleted' stays in
// its place (docs/api.md#messages).
import type { Route } from "./+types/bet-message";
import {
  deleteMessage,
  MESSAGE_NOT_FOUND,
} from "~/models/messages/messages.server";
import { apiOnly, readJson } from "~/framework/api.server";
import { parseId } from "~/utils/validation";
import { notFound } from "~/utils/errors";
import { requireBetRoute } from "~/routes/api/bet-id.server";

export function action({ request, context, params }: Route.ActionArgs) {
  return apiOnly("DELETE", request, async () => {
    const { user, betId } = await requireBetRoute({ request, context, params });
    await readJson(request);
    const messageId = parseId(params.messageId);
    if (messageId === null) throw notFound(MESSAGE_NOT_FOUND);
    await deleteMessage({ betId, messageId, userId: user.id });
    return new Response(null, { status: 204 });
  });
}
