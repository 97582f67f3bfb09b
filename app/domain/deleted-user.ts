// Closed accounts (docs/product-rules.md#your-data): the name others see, and the prefix their
// anonymised usernames carry, which no new username may start with.
export const DELETED_USER_NAME = "Deleted user";
export const DELETED_USERNAME_PREFIX = "deleted-";
export const RESERVED_USERNAME_MESSAGE =
  "Usernames may not start with 'deleted-'.";

/** True for a name only a closed account may carry. */
export function isReservedUsername(username: string): boolean {
  return username.toLowerCase().startsWith(DELETED_USERNAME_PREFIX);
}
