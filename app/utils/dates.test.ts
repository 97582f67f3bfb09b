import { describe, expect, it } from "vitest";
import { formatDate, isValidTimeZone } from "./dates";
import {
  utcToZonedParts,
  zonedDayLabel,
  zonedTimeToUtc,
} from "./zoned-time.server";

describe("time zones", () => {
  it("turns a wall-clock time in a zone into the UTC instant", () => {
    expect(zonedTimeToUtc("2026-12-01", "23:59:59", "UTC")).toBe(
      Date.UTC(2026, 11, 1, 23, 59, 59),
    );
    // Paris is UTC+1 in winter, UTC+2 in summer.
    expect(zonedTimeToUtc("2026-12-01", "12:00", "Europe/Paris")).toBe(
      Date.UTC(2026, 11, 1, 11, 0),
    );
    expect(zonedTimeToUtc("2026-07-01", "12:00", "Europe/Paris")).toBe(
      Date.UTC(2026, 6, 1, 10, 0),
    );
    expect(zonedTimeToUtc("2026-07-01", "12:00", "America/New_York")).toBe(
      Date.UTC(2026, 6, 1, 16, 0),
    );
  });

  it("refuses impossible dates", () => {
    expect(zonedTimeToUtc("2026-02-30", "12:00", "UTC")).toBeNull();
    expect(zonedTimeToUtc("not a date", "12:00", "UTC")).toBeNull();
    expect(zonedTimeToUtc("2026-02-10", "25:00", "UTC")).toBeNull();
  });

  it("round-trips through zoned parts", () => {
    const instant = Date.UTC(2026, 6, 1, 16, 30);
    expect(utcToZonedParts(instant, "America/New_York")).toMatchObject({
      date: "2026-07-01",
      time: "12:30",
    });
  });

  it("reads a wall-clock time the same whatever the server's own zone", () => {
    // A field-by-field TZDate goes through the server's zone: under
    // Lord Howe's half-hour change it put 02:15 UTC at 02:45.
    const own = process.env.TZ;
    try {
      for (const server of ["UTC", "Europe/Paris", "Australia/Lord_Howe"]) {
        process.env.TZ = server;
        expect(zonedTimeToUtc("2025-10-05", "02:15", "UTC")).toBe(
          Date.UTC(2025, 9, 5, 2, 15),
        );
        expect(zonedTimeToUtc("2024-10-27", "02:00", "Europe/London")).toBe(
          Date.UTC(2024, 9, 27, 2, 0),
        );
      }
    } finally {
      if (own === undefined) delete process.env.TZ;
      else process.env.TZ = own;
    }
  });

  it("labels an instant with its day in the zone", () => {
    const instant = Date.parse("2026-11-19T04:30:00Z");
    expect(zonedDayLabel(instant, "America/New_York")).toBe("Nov 18, 2026");
    expect(zonedDayLabel(instant, "UTC")).toBe("Nov 19, 2026");
  });

  it("validates zone names", () => {
    expect(isValidTimeZone("Europe/Paris")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
    expect(isValidTimeZone("")).toBe(false);
  });

  it("answers a name the same way every time, kept or not", () => {
    for (let round = 0; round < 2; round++) {
      expect(isValidTimeZone("Europe/Paris")).toBe(true);
      expect(isValidTimeZone("Mars/Olympus")).toBe(false);
    }
    // More names than are kept (cookies anyone can write): still right.
    for (let i = 0; i < 1_100; i++)
      expect(isValidTimeZone(`Mars/Crater${i}`)).toBe(false);
    expect(isValidTimeZone("Asia/Tokyo")).toBe(true);
    expect(isValidTimeZone("Mars/Crater1099")).toBe(false);
  });

  it("formats dates as MMM d, yyyy", () => {
    expect(formatDate(new Date(2026, 0, 5))).toBe("Jan 5, 2026");
  });
});
