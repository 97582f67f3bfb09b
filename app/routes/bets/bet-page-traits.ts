// What the bet page is (app/domain/route-traits.ts), beside its module.
import { MESSAGE_BODY_LIMIT, PHOTO_MESSAGES } from "~/domain/messages";
import type { RouteTraits } from "~/domain/route-traits";

// Kept for reading offline; its forms wait on the device when the network
// fails, named by their intent (a message with photos never waits: the
// browser refuses to keep a chosen file). The message form is multipart
// (its photos): that body alone may be as large as four photos.
export const BET_PAGE_TRAITS: RouteTraits = {
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
    label: "Bet",
    namesIntent: true,
    intents: {
      join: "Join a bet",
      nudge: "Nudge",
      message: "Send a message",
      "delete-message": "Delete a message",
    },
  },
};
