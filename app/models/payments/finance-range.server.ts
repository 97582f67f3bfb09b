// Finance ranges are whole days in the user's time zone (docs/product-rules.md#bets); the
// presets end today. Days travel as "YYYY-MM-DD" strings so that a day is
// never shifted by the server's own zone.
import { invalid } from "~/utils/errors";
import { utcToZonedParts, zonedTimeToUtc } from "~/utils/zoned-time.server";

import {
  DEFAULT_PRESET,
  PRESETS,
  type DateRange,
  type Preset,
} from "~/domain/finance-presets";

export const START_AFTER_END = "Start date cannot be after end date.";
export const DATE_IN_FUTURE = "Dates cannot be in the future.";
export const INVALID_DATE = "Please enter a valid date.";

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function toUtcDate(day: string) {
  const [, y, m, d] = DAY_RE.exec(day)!;
  return new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
}
const fromUtcDate = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(day: string, days: number) {
  const d = toUtcDate(day);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtcDate(d);
}

export function todayIn(timeZone: string, now = Date.now()) {
  return utcToZonedParts(now, timeZone).date;
}

/** Weeks start on Sunday (en-US, the app's locale). */
export function presetRange(preset: Preset, today: string, allStart: string) {
  const d = toUtcDate(today);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const start =
    preset === "week"
      ? addDays(today, -d.getUTCDay())
      : preset === "month"
        ? fromUtcDate(new Date(Date.UTC(y, m, 1)))
        : preset === "quarter"
          ? fromUtcDate(new Date(Date.UTC(y, m - (m % 3), 1)))
          : preset === "year"
            ? fromUtcDate(new Date(Date.UTC(y, 0, 1)))
            : allStart < today
              ? allStart
              : today;
  return { start, end: today };
}

/** "YYYY-MM-DD", or an ISO instant read as a day in `timeZone`. */
export function parseDay(value: string, timeZone: string): string | null {
  const v = value.trim();
  if (DAY_RE.test(v)) {
    return fromUtcDate(toUtcDate(v)) === v ? v : null;
  }
  const ms = Date.parse(v);
  if (!Number.isFinite(ms) || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return null;
  return utcToZonedParts(ms, timeZone).date;
}

/** Reads ?startDate&endDate (or ?preset=); 400 with the product's messages (docs/product-rules.md#finances). */
export function resolveRange({
  startDate,
  endDate,
  preset,
  timeZone,
  allStart,
  now = Date.now(),
}: {
  startDate?: string | null;
  endDate?: string | null;
  preset?: string | null;
  timeZone: string;
  /** The first day "All Time" covers (the user's sign-up day). */
  allStart: string;
  now?: number;
}): DateRange {
  const today = todayIn(timeZone, now);
  let start: string | null;
  let end: string | null;
  let chosen: Preset | null = null;
  if (startDate || endDate) {
    start = startDate ? parseDay(startDate, timeZone) : null;
    end = endDate ? parseDay(endDate, timeZone) : today;
    const fieldErrors: Record<string, string[]> = {};
    if (!start) fieldErrors.startDate = [INVALID_DATE];
    if (!end) fieldErrors.endDate = [INVALID_DATE];
    if (start && start > today) fieldErrors.startDate = [DATE_IN_FUTURE];
    if (end && end > today) fieldErrors.endDate = [DATE_IN_FUTURE];
    if (start && end && !fieldErrors.startDate && start > end)
      fieldErrors.startDate = [START_AFTER_END];
    const first = Object.values(fieldErrors)[0]?.[0];
    if (first) throw invalid(first, fieldErrors);
  } else {
    chosen = PRESETS.some((p) => p.id === preset)
      ? (preset as Preset)
      : DEFAULT_PRESET;
    ({ start, end } = presetRange(chosen, today, allStart));
  }
  return {
    start: start!,
    end: end!,
    preset: chosen,
    fromMs: zonedTimeToUtc(start!, "00:00", timeZone)!,
    toMs: zonedTimeToUtc(addDays(end!, 1), "00:00", timeZone)!,
  };
}
