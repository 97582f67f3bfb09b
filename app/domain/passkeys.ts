// Passkeys (docs/product-rules.md#passkeys): the numbers both the model and
// the Security page's form need.

/** At most this many passkeys an account. */
export const MAX_PASSKEYS = 10;
/** A passkey's name, at most this many characters. */
export const PASSKEY_NAME_MAX = 50;
