// How large a request body may be, decided once for every door (docs/api.md:
// a JSON body over 16 KB is refused with 413 before it is parsed). The server
// reads every body within its route's limit before any route sees it; a route
// that takes more (an avatar upload) says so in its `handle`.

export const JSON_BODY_LIMIT = 16_384;
/**
 * Page forms: the longest (a bet with a 1,000-character description,
 * percent-encoded at up to 9 bytes a character) fits with room to spare.
 */
export const FORM_BODY_LIMIT = 65_536;

export const BODY_TOO_LARGE = "Request body is too large (16 KB at most)";
export const FORM_TOO_LARGE = "This form is too large to send.";

export function defaultBodyLimit(contentType: string | undefined) {
  return /^application\/json\s*(;|$)/i.test(contentType ?? "")
    ? { bytes: JSON_BODY_LIMIT, message: BODY_TOO_LARGE }
    : { bytes: FORM_BODY_LIMIT, message: FORM_TOO_LARGE };
}
