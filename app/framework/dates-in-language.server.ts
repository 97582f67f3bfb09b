// Dates written the page's language's way (docs/product-rules.md#languages),
// on the server: English exactly as before ('Nov 28, 2026', 'in 3 days'),
// the others through date-fns's locales and Intl. Server-only, so the
// locales never reach a page's JavaScript.
// Each function and locale by its own path: the packages' index files
// import all of date-fns (every locale, every function), and Node reads
// date-fns's 200 KB package.json once per module it loads, which cost the
// server about two seconds at every start (docs/decisions/1160-a-server-starts-in-a-second.md).
import { formatDistanceToNow } from "date-fns/formatDistanceToNow";
import { de } from "date-fns/locale/de";
import { es } from "date-fns/locale/es";
import { ptBR } from "date-fns/locale/pt-BR";
import { intlLocale, type Language } from "~/domain/language";
import { formatDate, relativeTime } from "~/utils/dates";

const DATE_FNS = { es, de, "pt-BR": ptBR } as const;

/** 'Nov 28, 2026' · '28 nov 2026' · '28.11.2026' · '28 de nov. de 2026'. */
export function formatDateIn(date: Date | number, language: Language): string {
  if (language === "en") return formatDate(date);
  return new Intl.DateTimeFormat(intlLocale(language), {
    dateStyle: "medium",
    timeZone: "UTC",
  }).format(date);
}

/** 'in 3 days' · 'dentro de 3 días' · 'in 3 Tagen' · 'em 3 dias'. */
export function relativeTimeIn(date: Date | number, language: Language) {
  if (language === "en") return relativeTime(date);
  return formatDistanceToNow(date, {
    addSuffix: true,
    locale: DATE_FNS[language],
  });
}
