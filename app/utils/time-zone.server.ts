import { isValidTimeZone } from "./dates";

/** The user's time zone from the client-hint cookie, else UTC (docs/product-rules.md#bets). */
export function readTimeZone(request: Request): string {
  const cookie = request.headers.get("Cookie") ?? "";
  const match = /(?:^|;\s*)tz=([^;]+)/.exec(cookie);
  if (!match?.[1]) return "UTC";
  let tz: string;
  try {
    tz = decodeURIComponent(match[1]);
  } catch {
    return "UTC";
  }
  return isValidTimeZone(tz) ? tz : "UTC";
}
