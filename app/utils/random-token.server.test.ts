import { describe, expect, it } from "vitest";
import { randomToken } from "./random-token.server";

describe("randomToken", () => {
  it("hands out each pooled byte once: no two tokens alike across refills", () => {
    const seen = new Set<string>();
    // 16-byte tokens through ten refills of the 4 KB pool.
    for (let i = 0; i < 2_600; i++) seen.add(randomToken(16, "hex"));
    expect(seen.size).toBe(2_600);
  });

  it("encodes the length asked for", () => {
    expect(randomToken(16, "hex")).toMatch(/^[0-9a-f]{32}$/);
    expect(randomToken(16, "base64url")).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomToken(16, "base64")).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    // A token that does not fit what is left of the pool starts a new one.
    expect(randomToken(4_096, "hex")).toHaveLength(8_192);
  });

  it("refuses a size it cannot draw", () => {
    expect(() => randomToken(0, "hex")).toThrow(RangeError);
    expect(() => randomToken(4_097, "hex")).toThrow(RangeError);
    expect(() => randomToken(1.5, "hex")).toThrow(RangeError);
  });
});
