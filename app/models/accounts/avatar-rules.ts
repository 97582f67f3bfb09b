// Avatar limits and messages, safe for the browser bundle: the edit page's
// route handle declares its body limit with them (app/framework/request-handler.ts).

/** docs/product-rules.md#amounts-and-limits: avatar upload max 2 MB. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/**
 * The most a whole upload request may carry, checked before parsing: the
 * image and its few hundred bytes of form envelope fit in 2 MB together, so
 * any image above 2 MB is refused unread (docs/decisions/0301-avatar-upload.md).
 */
export const AVATAR_BODY_LIMIT = AVATAR_MAX_BYTES;
/** Past this many pixels an image is refused before it is decoded (a decompression bomb). */
export const AVATAR_MAX_INPUT_PIXELS = 40_000_000;
export const AVATAR_SIZE = 256;

export const AVATAR_MESSAGES = {
  tooLarge: "The image is larger than 2 MB. Please choose a smaller image.",
  notImage: "Please choose a PNG, JPEG, WebP or GIF image.",
  unreadable: "This image could not be read. Please choose another one.",
  tooManyPixels:
    "This image has too many pixels (40 megapixels at most). Please choose a smaller image.",
  missing: "Please choose an image to upload.",
} as const;
