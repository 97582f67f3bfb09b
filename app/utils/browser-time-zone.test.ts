// The browser's zone from Temporal where there is one, without building an
// Intl formatter (docs/decisions/archive/1055-main-thread-at-the-floor.md).
import { afterEach, describe, expect, it, vi } from "vitest";
import { browserTimeZone } from "./browser-time-zone";

afterEach(() => vi.unstubAllGlobals());

describe("browserTimeZone", () => {
  it("asks Temporal where the browser has it, and builds no Intl formatter", () => {
    const formatter = vi.spyOn(Intl, "DateTimeFormat");
    vi.stubGlobal("window", {
      Temporal: { Now: { timeZoneId: () => "Asia/Tokyo" } },
    });
    expect(browserTimeZone()).toBe("Asia/Tokyo");
    expect(formatter).not.toHaveBeenCalled();
    formatter.mockRestore();
  });

  it("asks Intl where there is no Temporal", () => {
    vi.stubGlobal("window", {});
    expect(browserTimeZone()).toBe(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
  });

  it("says null when neither can answer", () => {
    vi.stubGlobal("window", {
      Temporal: {
        Now: {
          timeZoneId: () => {
            throw new RangeError("no zone");
          },
        },
      },
    });
    expect(browserTimeZone()).toBeNull();
  });
});
