// Client-safe: the languages the app reads and writes amounts in
// (docs/product-rules.md#amounts-typed-the-local-way). The pages are English
// for now; the amount reader and money formatting already take the language.
export const LANGUAGES = ["en", "es", "de", "pt-BR"] as const;
export type Language = (typeof LANGUAGES)[number];

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
