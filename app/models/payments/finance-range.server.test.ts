import { describe, expect, it } from "vitest";
import { DomainError } from "~/utils/errors";
import {
  DATE_IN_FUTURE,
  INVALID_DATE,
  START_AFTER_END,
  parseDay,
  presetRange,
  resolveRange,
} from "./finance-range.server";

// Wednesday, Nov 18 2026, 23:30 in New York = Nov 19, 04:30 UTC.
const NOW = Date.parse("2026-11-19T04:30:00Z");
const NY = "America/New_York";

describe("presets end today, in the user's zone", () => {
  it("computes week (from Sunday), month, quarter, year and all time", () => {
    const today = "2026-11-18";
    expect(presetRange("week", today, "2026-01-05")).toEqual({
      start: "2026-11-15",
      end: today,
    });
    expect(presetRange("month", today, "x").start).toBe("2026-11-01");
    expect(presetRange("quarter", today, "x").start).toBe("2026-10-01");
    expect(presetRange("year", today, "x").start).toBe("2026-01-01");
    expect(presetRange("all", today, "2025-03-09").start).toBe("2025-03-09");
  });

  it("uses the zone's day and midnight boundaries", () => {
    const r = resolveRange({ timeZone: NY, allStart: "2026-01-01", now: NOW });
    expect(r).toMatchObject({
      start: "2026-11-01",
      end: "2026-11-18",
      preset: "month",
    });
    expect(new Date(r.fromMs).toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(new Date(r.toMs).toISOString()).toBe("2026-11-19T05:00:00.000Z");
    const utc = resolveRange({
      timeZone: "UTC",
      allStart: "2026-01-01",
      now: NOW,
    });
    expect(utc.end).toBe("2026-11-19");
  });
});

describe("explicit dates (docs/product-rules.md#forms-and-messages)", () => {
  const fail = (startDate: string | null, endDate: string | null) => {
    try {
      resolveRange({
        startDate,
        endDate,
        timeZone: NY,
        allStart: "2026-01-01",
        now: NOW,
      });
    } catch (error) {
      return error as DomainError;
    }
    throw new Error("expected a refusal");
  };

  it("refuses start after end, future dates and nonsense", () => {
    expect(fail("2026-11-10", "2026-11-01").fieldErrors).toEqual({
      startDate: [START_AFTER_END],
    });
    // Nov 19 is already today in UTC but still tomorrow in New York.
    expect(fail("2026-11-01", "2026-11-19").fieldErrors).toEqual({
      endDate: [DATE_IN_FUTURE],
    });
    expect(fail("2026-02-30", null).fieldErrors).toEqual({
      startDate: [INVALID_DATE],
    });
    expect(fail("yesterday", "2026-11-01").status).toBe(400);
  });

  it("accepts days and ISO instants, an open end meaning today", () => {
    const r = resolveRange({
      startDate: "2026-11-02T03:00:00Z",
      endDate: null,
      timeZone: NY,
      allStart: "2026-01-01",
      now: NOW,
    });
    expect(r).toMatchObject({
      start: "2026-11-01",
      end: "2026-11-18",
      preset: null,
    });
    expect(parseDay("2026-11-05", NY)).toBe("2026-11-05");
    expect(parseDay("11/05/2026", NY)).toBeNull();
  });
});
