import { randomToken } from "~/utils/random-token.server";

/** The seed of one render's form keys: 128 random bits (app/domain/idempotency.ts). */
export function newFormKeySeed() {
  return randomToken(16, "base64url");
}
