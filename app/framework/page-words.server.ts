// Words the server writes for a page (a refused form's message, a field's
// error, a toast) in the page's language. The model layer words its
// refusals once, in English, for the pages and the /api alike (the /api
// keeps them: its clients branch on codes, docs/api.md); the page door
// (./page.server.ts) and the toast writer look each one up in the `server`
// area of the catalogs (app/locales/<language>/server.json), where a key is
// the English words themselves and `{name}` stands for a part that varies
// ("Amount must be at least {amount}."). Words with no entry stay English:
// tests/lint/server-words.test.ts finds the model's refusals that have none.
import { AsyncLocalStorage } from "node:async_hooks";
import { setupI18n, type I18n } from "@lingui/core";
import { DEFAULT_LANGUAGE, type Language } from "~/domain/language";
import { CATALOGS, compiledMessages } from "./catalogs.server";

const AREA = "server.";

/** The request's page language, asked only when words are written. */
const scope = new AsyncLocalStorage<() => Language>();

/** Runs a page request with its language (app/pipeline/page-language.server.ts). */
export function inPageLanguage<T>(language: () => Language, run: () => T): T {
  return scope.run(language, run);
}

/** The page language of the request being answered (English outside one). */
export function currentPageLanguage(): Language {
  return scope.getStore()?.() ?? DEFAULT_LANGUAGE;
}

type Template = { key: string; pattern: RegExp; names: string[] };

/** The English keys with `{parts}`, as patterns that read the parts back. */
const templates: Template[] = Object.keys(CATALOGS.en)
  .filter((key) => key.startsWith(AREA) && key.includes("{"))
  .map((key) => {
    const names: string[] = [];
    const source = key
      .slice(AREA.length)
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (!name) return part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&");
        names.push(name);
        return "(.+?)";
      })
      .join("");
    return { key, pattern: new RegExp(`^${source}$`, "s"), names };
  });

const translators = new Map<Language, I18n>();
function i18nFor(language: Language): I18n {
  let i18n = translators.get(language);
  if (!i18n) {
    i18n = setupI18n({
      locale: language,
      messages: { [language]: compiledMessages(language) },
    });
    translators.set(language, i18n);
  }
  return i18n;
}

/** English words the server wrote, in `language` when the catalogs have them. */
export function wordsIn(language: Language, english: string): string {
  if (language === DEFAULT_LANGUAGE || !english) return english;
  const i18n = i18nFor(language);
  const exact = AREA + english;
  if (exact in CATALOGS.en) return i18n._(exact);
  for (const { key, pattern, names } of templates) {
    const parts = pattern.exec(english);
    if (!parts) continue;
    const values = Object.fromEntries(names.map((n, i) => [n, parts[i + 1]!]));
    return i18n._(key, values);
  }
  return english;
}

/** `wordsIn` the language of the page being answered. */
export function pageWords(english: string): string {
  return wordsIn(currentPageLanguage(), english);
}
