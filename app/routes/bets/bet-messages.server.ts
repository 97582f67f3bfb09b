// /bet/{id}'s share of docs/product-rules.md#messages: the conversation the
// page shows (to the bet's people only), and its two form intents,
// "message" and "delete-message", answered with a redirect back to the
// conversation (a plain form) or the refusal beside the form.
import { href, redirect } from "react-router";
import {
  deleteMessage,
  MESSAGE_NOT_FOUND,
  messagesForPage,
  postMessage,
  type MessageView,
} from "~/models/messages/messages.server";
import type { BetView } from "~/models/bets/bet-access.server";
import { betIdOrNotFound } from "~/models/bets/bet-id.server";
import { formFailure } from "~/framework/page.server";
import { parseId } from "~/utils/validation";
import { formatDateTime } from "~/utils/dates";
import { notFound } from "~/utils/errors";
import type { MessageItem } from "~/components/bets/bet-messages";

export function messageItems(
  messages: MessageView[],
  userId: number,
  timeZone: string,
): MessageItem[] {
  return messages.map((m) => ({
    id: m.id,
    authorName: m.authorName,
    mine: m.authorId === userId,
    body: m.body,
    at: m.createdAt.toISOString(),
    atLabel: formatDateTime(m.createdAt, timeZone),
    canDelete: m.canDelete,
    photos: m.photos.map((p) => {
      const url = href("/api/bets/:id/messages/:messageId/photos/:photoId", {
        id: String(m.betId),
        messageId: String(m.id),
        photoId: String(p.id),
      });
      return {
        id: p.id,
        url,
        thumbUrl: `${url}?size=thumb`,
        width: p.width,
        height: p.height,
      };
    }),
  }));
}

/** The conversation for a bet page, or null for a viewer who is not on the bet. */
export async function loadMessages(
  bet: Pick<BetView, "id" | "refereeId" | "participants">,
  userId: number,
  timeZone: string,
) {
  const messages = await messagesForPage(bet, userId);
  return messages ? messageItems(messages, userId, timeZone) : null;
}

export const MESSAGE_INTENTS = ["message", "delete-message"] as const;
export type MessageIntent = (typeof MESSAGE_INTENTS)[number];
export const isMessageIntent = (v: unknown): v is MessageIntent =>
  v === "message" || v === "delete-message";

export async function messageAction(
  intent: MessageIntent,
  rawId: string | undefined,
  userId: number,
  form: FormData,
  files: { name: string; bytes: Uint8Array }[] = [],
) {
  try {
    const betId = betIdOrNotFound(rawId);
    if (intent === "message") {
      await postMessage({
        betId,
        userId,
        body: form.get("body") ?? "",
        photos: files.filter((f) => f.name === "photo").map((f) => f.bytes),
      });
    } else {
      const raw = form.get("messageId");
      const messageId = parseId(typeof raw === "string" ? raw : undefined);
      if (messageId === null) throw notFound(MESSAGE_NOT_FOUND);
      await deleteMessage({ betId, messageId, userId });
    }
    return redirect(`${href("/bet/:id", { id: String(betId) })}#messages`);
  } catch (error) {
    // A refused message comes back in its box (a plain form loses nothing typed).
    const body = form.get("body");
    return formFailure(
      error,
      intent === "message" ? "Message not sent" : "Could not delete",
      { intent, body: typeof body === "string" ? body : "" },
    );
  }
}
