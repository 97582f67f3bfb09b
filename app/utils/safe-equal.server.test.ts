import { describe, expect, it } from "vitest";
import { safeEqual } from "./safe-equal.server";

describe("safeEqual", () => {
  it("is true only for equal bytes, and never throws on lengths that differ in bytes", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    // Equal in characters, not in bytes: timingSafeEqual alone would throw.
    expect(safeEqual("é".repeat(43), "A".repeat(43))).toBe(false);
    expect(safeEqual("", "A".repeat(43))).toBe(false);
    expect(safeEqual(Buffer.from([1, 2]), Buffer.from([1, 2]))).toBe(true);
  });
});
