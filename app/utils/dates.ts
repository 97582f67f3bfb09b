// By path, not the index: see app/framework/dates-in-language.server.ts.
import { format } from "date-fns/format";
import { formatDistanceToNow } from "date-fns/formatDistanceToNow";

/** docs/product-rules.md#amounts-and-limits: dates read 'MMM d, yyyy'. */
export function formatDate(date: Date | number): string {
  return format(date, "MMM d, yyyy");
}

/** Deadlines show as relative time: "in 3 days", "2 hours ago". */
export function relativeTime(date: Date | number): string {
  return formatDistanceToNow(date, { addSuffix: true });
}

// Whether a name is a time zone is asked on every request (the tz cookie a
// browser sends), and the only test is building an Intl.DateTimeFormat:
// ~50 µs, 2–3 % of a page's server CPU
// (docs/decisions/archive/1056-server-cpu-per-request.md). So each answer is kept.
// The names come from cookies anyone can write, so only so many are kept;
// past that, names are tested each time.
const KEPT_ZONE_ANSWERS = 1_000;
const zoneAnswers = new Map<string, boolean>();

export function isValidTimeZone(tz: unknown): tz is string {
  if (typeof tz !== "string" || tz.length === 0 || tz.length > 64) return false;
  const known = zoneAnswers.get(tz);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    valid = true;
  } catch {
    valid = false;
  }
  if (zoneAnswers.size < KEPT_ZONE_ANSWERS) zoneAnswers.set(tz, valid);
  return valid;
}

// Building an Intl.DateTimeFormat costs far more than using one: keep one
// per time zone and shape (a list page formats dozens of dates).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
  locale = "en-US",
) {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** "Dec 1" as seen in a time zone. */
export function formatMonthDay(
  date: Date | number,
  timeZone: string,
  locale = "en-US",
): string {
  return formatterFor(
    timeZone,
    { month: "short", day: "numeric" },
    locale,
  ).format(date);
}

/** "Nov 26, 3:00 PM" as seen in a time zone: a deadline to act by (`locale`: "de-DE" writes "26. Nov., 15:00"). */
export function formatDateTime(
  date: Date | number,
  timeZone = "UTC",
  locale = "en-US",
): string {
  return formatterFor(
    isValidTimeZone(timeZone) ? timeZone : "UTC",
    { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
    locale,
  ).format(date);
}
