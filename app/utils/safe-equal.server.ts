// Comparing a secret someone sent with the one we expect, in time that does
// not depend on where they differ. crypto.timingSafeEqual throws on inputs of
// unequal length, and a string's length in characters is not its length in
// bytes ("é" is one character, two bytes), so both sides are hashed first:
// equal-length digests, any input, never a throw.
import crypto from "node:crypto";

const digest = (value: string | Buffer) =>
  crypto.createHash("sha256").update(value).digest();

/** Whether `given` equals `expected`, compared in constant time. */
export function safeEqual(given: string | Buffer, expected: string | Buffer) {
  return crypto.timingSafeEqual(digest(given), digest(expected));
}
