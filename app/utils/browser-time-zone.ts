type TemporalNow = { Now?: { timeZoneId?: () => string } };

/**
 * The browser's IANA time zone, or null when it cannot say. Temporal where
 * the browser has it: the same answer as Intl.DateTimeFormat's, without
 * building a formatter, and the first formatter a page builds loads the
 * browser's locale and time zone data on the main thread, 20–50 ms at full
 * speed in docs/decisions/archive/1055-main-thread-at-the-floor.md.
 */
export function browserTimeZone(): string | null {
  try {
    const now = (window as { Temporal?: TemporalNow }).Temporal?.Now;
    return (
      now?.timeZoneId?.() ??
      Intl.DateTimeFormat().resolvedOptions().timeZone ??
      null
    );
  } catch {
    return null;
  }
}

/** browserTimeZone for an inline classic script: an expression. */
export const BROWSER_TIME_ZONE_JS =
  `(window.Temporal&&Temporal.Now&&Temporal.Now.timeZoneId` +
  `?Temporal.Now.timeZoneId():Intl.DateTimeFormat().resolvedOptions().timeZone)`;
