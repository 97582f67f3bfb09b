// The page's messages in React: the root hands down its language's compiled
// catalog (its loader's data, so the browser hydrates with exactly what the
// server rendered), and components ask `useT()` for a message by key
// (docs/decisions/1110-messages-with-lingui-core.md).
import { setupI18n, type Messages } from "@lingui/core";
import { createContext, useContext, useMemo } from "react";
import type en from "~/locales/en/messages.json";
import { DEFAULT_LANGUAGE, type Language } from "~/domain/language";

/** Every message's key: the English catalog's (tests hold the others to it). */
export type MessageKey = keyof typeof en;
export type MessageValues = Record<string, string | number | Date>;
export type Translate = (key: MessageKey, values?: MessageValues) => string;

type PageLanguage = { language: Language; t: Translate };

const LanguageContext = createContext<PageLanguage>({
  language: DEFAULT_LANGUAGE,
  // Outside a page (a component rendered alone): the key itself.
  t: (key) => key,
});

export function I18nProvider({
  language,
  messages,
  children,
}: {
  language: Language;
  messages: Messages;
  children: React.ReactNode;
}) {
  const value = useMemo<PageLanguage>(() => {
    const i18n = setupI18n({
      locale: language,
      messages: { [language]: messages },
    });
    return { language, t: (key, values) => i18n._(key, values) };
  }, [language, messages]);
  return (
    <LanguageContext.Provider value={value}>
      {children}
    </LanguageContext.Provider>
  );
}

/** The page's message function: `t("nav.home")`, `t("x", { count })`. */
export function useT(): Translate {
  return useContext(LanguageContext).t;
}

/** The page's language (for `Intl`, amounts, `lang` attributes). */
export function useLanguage(): Language {
  return useContext(LanguageContext).language;
}
