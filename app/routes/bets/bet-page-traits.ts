// What the bet page is (app/domain/route-traits.ts), beside its module.
import { MESSAGE_BODY_LIMIT, PHOTO_MESSAGES } from "~/domain/messages";
import type { RouteTraits } from "~/domain/route-traits";
import type { MessageKey } from "~/locales/keys";

// Kept for reading offline; its forms wait on the device when the network
// fails, named by their intent (a message with photos never waits: the
// browser refuses to keep a chosen file). The message form is multipart
// (its photos): that body alone may be as large as four photos.
export const BET_PAGE_TRAITS: RouteTraits<MessageKey> = {
  messages: [
    "bet",
    "share",
    "status",
    "fair",
    "card",
    "resolution",
    "messages",
  ],
  keptForReading: true,
  multipart: true,
  bodyLimit: {
    bytes: MESSAGE_BODY_LIMIT,
    message: PHOTO_MESSAGES.bodyTooLarge,
  },
  offline: {
    label: "kept.bet",
    intents: {
      join: "kept.joinBet",
      nudge: "kept.nudge",
      refer: "kept.askReferee",
      message: "kept.sendMessage",
      "delete-message": "kept.deleteMessage",
    },
  },
};
