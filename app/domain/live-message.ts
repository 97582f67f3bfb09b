// What a live event tells a page (docs/product-rules.md#live-pages), written
// once for both sides: the server sends it (app/models/notifications/) and the
// browser reads it (app/browser/live-updates.ts).
export type LiveMessage =
  { type: "bet"; betId: number } | { type: "friends" } | { type: "activity" };

export type LiveEventType = LiveMessage["type"];
