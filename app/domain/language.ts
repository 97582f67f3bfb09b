// Client-safe: the languages the app speaks, and which one a page is in
// (docs/product-rules.md#languages). The amount reader and money formatting
// take the language too (docs/product-rules.md#amounts-typed-the-local-way).
export const LANGUAGES = ["en", "es", "de", "pt-BR"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Each language named in itself, as the picker lists it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: "English",
  es: "Español",
  de: "Deutsch",
  "pt-BR": "Português (Brasil)",
};

/** The /api's refusal of a language it does not speak (an English contract). */
export const UNKNOWN_LANGUAGE = "Unknown language: use en, es, de or pt-BR";

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** The `Intl` locale a language formats numbers and money with. */
export function intlLocale(language: Language): string {
  switch (language) {
    case "en":
      return "en-US";
    case "es":
      return "es-ES";
    case "de":
      return "de-DE";
    case "pt-BR":
      return "pt-BR";
  }
}

/**
 * The language one tag of a browser's list means, or null: any Portuguese
 * is Brazilian Portuguese, any Spanish or German region is that language.
 */
export function languageOfTag(tag: string): Language | null {
  const primary = tag.trim().split("-")[0]!.toLowerCase();
  switch (primary) {
    case "en":
    case "es":
    case "de":
      return primary;
    case "pt":
      return "pt-BR";
    default:
      return null;
  }
}

/**
 * The best language an `Accept-Language` header asks for: the highest q
 * (the first of equals) among the tags we speak; `q=0` means "not this".
 */
export function matchAcceptLanguage(
  header: string | null | undefined,
): Language | null {
  let best: Language | null = null;
  let bestQ = 0;
  for (const part of (header ?? "").split(",")) {
    const [rawTag, ...params] = part.trim().split(";");
    const tag = rawTag!.trim();
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!(q > bestQ) || q > 1) continue;
    const language = languageOfTag(tag);
    if (!language) continue;
    best = language;
    bestQ = q;
  }
  return best;
}

/**
 * The page's language: the `lang` cookie (the picker's), then the
 * signed-in person's saved language, then the browser's best match, else
 * English.
 */
export function resolveLanguage({
  cookie,
  saved,
  acceptLanguage,
}: {
  cookie?: string | null;
  saved?: string | null;
  acceptLanguage?: string | null;
}): Language {
  if (isLanguage(cookie)) return cookie;
  if (isLanguage(saved)) return saved;
  return matchAcceptLanguage(acceptLanguage) ?? DEFAULT_LANGUAGE;
}
