/** The first two letters of a username in capitals (docs/product-rules.md#screens header avatar). */
export function initials(username: string): string {
  return [...username].slice(0, 2).join("").toUpperCase();
}
