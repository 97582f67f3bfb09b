// Unpredictable tokens made on every request (the CSP nonce, the seed of a
// render's form keys), drawn from a pool of random bytes refilled 4 KB at a
// time, as Node's own crypto.randomUUID does: one call into OpenSSL per
// ~128 pages instead of two per page
// (docs/decisions/archive/1056-server-cpu-per-request.md). Each byte is handed out
// once. Secrets that outlive a request (session tokens, reset links) keep
// their own crypto.randomBytes call.
import crypto from "node:crypto";

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` fresh random bytes (at most 4096), encoded. */
export function randomToken(
  bytes: number,
  encoding: "base64" | "base64url" | "hex",
): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > POOL_BYTES)
    throw new RangeError(`randomToken: ${bytes} bytes`);
  if (used + bytes > POOL_BYTES) {
    crypto.randomFillSync(pool);
    used = 0;
  }
  const token = pool.toString(encoding, used, used + bytes);
  used += bytes;
  return token;
}
