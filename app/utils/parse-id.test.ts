import { describe, expect, it } from "vitest";
import { parseId } from "./validation";

describe("route ids", () => {
  it("reads a decimal id and nothing else", () => {
    expect(parseId("42")).toBe(42);
    for (const raw of [undefined, "", "0", "042", "-1", "1.5", "1e3", "abc"])
      expect(parseId(raw)).toBeNull();
    expect(parseId("99999999999999999")).toBeNull(); // past a safe integer
  });
});
