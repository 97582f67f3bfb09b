// Talk on a bet (docs/product-rules.md#messages): the limits the form and the
// model share. Safe for the browser bundle.

/** The longest message, in characters. */
export const MESSAGE_MAX_CHARS = 1000;
/** The most messages one bet holds. */
export const MESSAGES_PER_BET = 500;
/** The most messages one person writes in a minute, over every bet. */
export const MESSAGES_PER_MINUTE = 20;
/** What stays in a deleted message's place. */
export const MESSAGE_DELETED = "Message deleted";
