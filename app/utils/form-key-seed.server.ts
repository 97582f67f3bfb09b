import crypto from "node:crypto";

/** The seed of one render's form keys: 128 random bits (app/domain/idempotency.ts). */
export function newFormKeySeed() {
  return crypto.randomBytes(16).toString("base64url");
}
