// Comparing a secret someone sent with the one we expect, in time that does
// not depend on where they differ. crypto.timingSafeEqual throws on inputs of
// unequal length, and a string's length in characters is not its length in
// bytes ("é" is one character, two bytes): compare the bytes' lengths first.
// Only a length leaks that way, and every secret here has a public length.
import crypto from "node:crypto";

/** Whether `given` equals `expected`, compared in constant time; never throws. */
export function safeEqual(given: string | Buffer, expected: string | Buffer) {
  const a = typeof given === "string" ? Buffer.from(given) : given;
  const b = typeof expected === "string" ? Buffer.from(expected) : expected;
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
