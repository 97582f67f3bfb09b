// The page's language, read on the server from the request alone (no
// JavaScript): the `lang` cookie the picker sets, the signed-in person's
// saved language, the browser's Accept-Language, else English
// (docs/product-rules.md#languages; the rule is resolveLanguage).
import { isLanguage, resolveLanguage, type Language } from "~/domain/language";

export const LANGUAGE_COOKIE = "lang";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The picker's cookie, when it names a language we speak. */
export function readLanguageCookie(request: Request): Language | null {
  const cookie = request.headers.get("Cookie") ?? "";
  const match = /(?:^|;\s*)lang=([^;]+)/.exec(cookie);
  if (!match?.[1]) return null;
  let value: string;
  try {
    value = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return isLanguage(value) ? value : null;
}

export function pageLanguage(
  request: Request,
  saved?: string | null,
): Language {
  return resolveLanguage({
    cookie: readLanguageCookie(request),
    saved,
    acceptLanguage: request.headers.get("Accept-Language"),
  });
}

/** The Set-Cookie header the picker answers with (readable by no script). */
export function languageCookieHeader(language: Language): string {
  return `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax; HttpOnly`;
}
