// Wall-clock times in a time zone and the instants they name, through
// @date-fns/tz (docs/decisions/1031-time-zones-through-date-fns-tz.md).
// Server-side only: the library's date class would ride into every page's
// scripts with app/utils/dates.ts, which components import.
import { TZDate, tzOffset } from "@date-fns/tz";
// By path, not the index: see app/framework/dates-in-language.server.ts.
import { format } from "date-fns/format";

/**
 * The UTC instant of a wall-clock time in a time zone: "2026-12-01" +
 * "23:59:59" in "Europe/Paris". Returns null for an impossible date.
 */
export function zonedTimeToUtc(
  date: string,
  time: string,
  timeZone: string,
): number | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!d || !t) return null;
  const [y, mo, da] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [h, mi, s] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59 || s > 59)
    return null;
  const naive = Date.UTC(y, mo - 1, da, h, mi, s);
  const check = new Date(naive);
  if (check.getUTCDate() !== da || check.getUTCMonth() !== mo - 1) return null;
  // The zone's offset at the wall-clock time read as UTC, then at the instant
  // that gives: two passes settle it across a daylight-saving change. Not
  // TZDate's field constructor, which reads the fields through the server's
  // own zone and is off near that zone's changes.
  const instant = (at: number) =>
    naive - tzOffset(timeZone, new Date(at)) * 60_000;
  const utc = instant(instant(naive));
  return Number.isFinite(utc) ? utc : null;
}

/** "YYYY-MM-DD" and "HH:MM" of an instant as seen in a time zone. */
export function utcToZonedParts(instant: number, timeZone: string) {
  const [date, time, seconds] = format(
    new TZDate(instant, timeZone),
    "yyyy-MM-dd HH:mm ss",
  ).split(" ");
  return { date: date!, time: time!, seconds: seconds! };
}

/** 'MMM d, yyyy' of an instant as a day in `timeZone` (the ledger's rows and CSV). */
export function zonedDayLabel(instant: Date | number, timeZone: string) {
  return format(new TZDate(Number(instant), timeZone), "MMM d, yyyy");
}
