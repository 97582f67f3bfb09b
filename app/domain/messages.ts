// Talk on a bet (docs/product-rules.md#messages): the limits the form and the
// model share. Safe for the browser bundle.

/** The longest message, in characters. */
export const MESSAGE_MAX_CHARS = 1000;
/** The most messages one bet holds. */
export const MESSAGES_PER_BET = 500;
/** The most messages one person writes in a minute, over every bet. */
export const MESSAGES_PER_MINUTE = 20;

/** docs/product-rules.md#messages: photos as evidence. */
export const PHOTOS_PER_MESSAGE = 4;
/** Each photo as uploaded. */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Stored with the long side at most this, and a thumbnail of this. */
export const PHOTO_LONG_SIDE = 1600;
export const PHOTO_THUMB_SIDE = 320;
/** The most a message with its photos may carry, checked before it is parsed. */
export const MESSAGE_BODY_LIMIT =
  PHOTOS_PER_MESSAGE * PHOTO_MAX_BYTES + 64 * 1024;

export const PHOTO_MESSAGES = {
  tooLarge: "A photo is at most 10 MB. Please choose a smaller one.",
  notImage: "A photo must be a JPEG, PNG or WebP image.",
  tooMany: "A message carries at most 4 photos.",
  unreadable: "This photo could not be read. Please choose another one.",
  bodyTooLarge: "Four photos of 10 MB at most. Please choose smaller ones.",
} as const;
