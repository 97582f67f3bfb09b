import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-origin relative paths", () => {
    expect(safeRedirect("/bet/3?x=1")).toBe("/bet/3?x=1");
    expect(safeRedirect("/join/ABCDEF")).toBe("/join/ABCDEF");
  });

  it.each([
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
    "bet/3",
    "/\tevil",
    "",
    null,
    undefined,
  ])("refuses %s", (value) => {
    expect(safeRedirect(value, "/home")).toBe("/home");
  });
});
