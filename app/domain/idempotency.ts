// Idempotency keys, the parts both the server and the browser need
// (docs/product-rules.md#repeats).

/** The hidden field every page form that changes something carries. */
export const IDEMPOTENCY_FIELD = "idempotencyKey";

export const INVALID_IDEMPOTENCY_KEY = "Invalid idempotency key.";

/** 1 to 255 visible ASCII characters. */
export function isValidIdempotencyKey(key: string) {
  return /^[\x21-\x7e]{1,255}$/.test(key);
}

/**
 * A form's key: the render's random seed (128 bits from the server, fresh
 * at every render of the root) joined to a short hash of where the form is
 * (its page and its place in the tree), so two forms on a page, or the same
 * form on two pages, never share a key. The same on the server and in the
 * browser, so hydration keeps it.
 */
export function formIdempotencyKey(seed: string, page: string, place: string) {
  // FNV-1a, 32 bits: a label, not a secret (the seed is the secret part).
  let hash = 0x811c9dc5;
  for (const char of `${page}|${place}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${seed}.${hash.toString(36)}`;
}
