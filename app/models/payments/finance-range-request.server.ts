// The finance views' range from a request, shared by both doors (the
// Finances tab and /financial-history, /api/financial-history and its CSV).
import { resolveRange } from "./finance-range.server";
import { utcToZonedParts } from "~/utils/zoned-time.server";
import { readTimeZone } from "~/utils/time-zone.server";

/**
 * ?startDate&endDate (or ?preset=) as whole days in the viewer's time zone;
 * "All time" starts on the day they joined. 400 with the product's messages (docs/product-rules.md#finances).
 */
export function rangeFromRequest(request: Request, joinedAt: Date) {
  const { searchParams } = new URL(request.url);
  const timeZone = readTimeZone(request);
  const range = resolveRange({
    startDate: searchParams.get("startDate"),
    endDate: searchParams.get("endDate"),
    preset: searchParams.get("preset"),
    timeZone,
    allStart: utcToZonedParts(joinedAt.getTime(), timeZone).date,
  });
  return { range, timeZone };
}
