/** The first two letters of a username in capitals (the header avatar, docs/product-rules.md#screens). */
export function initials(username: string): string {
  return [...username].slice(0, 2).join("").toUpperCase();
}
