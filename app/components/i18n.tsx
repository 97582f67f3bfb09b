// The page's messages in React: the root hands down its language's compiled
// messages for this page (named by its loader's data, fetched before
// hydrating, so the browser hydrates with exactly what the server rendered), and components ask `useT()` for a message by key
// (docs/decisions/1110-messages-with-lingui-core.md).
import { setupI18n, type Messages } from "@lingui/core";
import { createContext, Fragment, useContext, useMemo } from "react";
import type { MessageKey } from "~/locales/keys";
import { messagesAt } from "~/framework/page-messages";
import { DEFAULT_LANGUAGE, type Language } from "~/domain/language";

export type { MessageKey };
export type MessageValues = Record<string, string | number | Date>;
export type Translate = (key: MessageKey, values?: MessageValues) => string;

type PageLanguage = { language: Language; t: Translate };

const LanguageContext = createContext<PageLanguage>({
  language: DEFAULT_LANGUAGE,
  // Outside a page (a component rendered alone): the key itself.
  t: (key) => key,
});

/** A message function over one language's compiled messages. */
export function translator(language: Language, messages: Messages): Translate {
  const i18n = setupI18n({
    locale: language,
    messages: { [language]: messages },
  });
  return (key, values) => i18n._(key, values);
}

// One message function per set of messages: a page's messages are one object
// per language and areas (kept by the server, fetched once by the browser), so
// a request reuses the function the last one made instead of setting up Lingui
// again (about 95 µs of a page's server time, quality.md).
const translators = new WeakMap<Messages, Translate>();
function translatorOf(language: Language, messages: Messages): Translate {
  let t = translators.get(messages);
  if (!t) {
    t = translator(language, messages);
    translators.set(messages, t);
  }
  return t;
}

type RootMatch = { id: string; data?: unknown; loaderData?: unknown };
type RootData = { language?: Language; messagesHref?: string } | undefined;

/** For a route's `meta`, where no hook runs: the root's language's messages. */
export function metaT(matches: readonly (RootMatch | undefined)[]): Translate {
  const match = matches.find((m) => m?.id === "root");
  const root = (match?.loaderData ?? match?.data) as RootData;
  const messages = root?.messagesHref && messagesAt(root.messagesHref);
  if (!messages || !root?.language) return (key) => key;
  return translatorOf(root.language, messages);
}

export function I18nProvider({
  language,
  messages,
  children,
}: {
  language: Language;
  messages: Messages;
  children: React.ReactNode;
}) {
  const value = useMemo<PageLanguage>(
    () => ({ language, t: translatorOf(language, messages) }),
    [language, messages],
  );
  return (
    <LanguageContext.Provider value={value}>
      {children}
    </LanguageContext.Provider>
  );
}

/** The page's message function: `t(key)`, `t(key, { count })`. */
export function useT(): Translate {
  return useContext(LanguageContext).t;
}

/** The page's language (for `Intl`, amounts, `lang` attributes). */
export function useLanguage(): Language {
  return useContext(LanguageContext).language;
}

/**
 * A message with marked words (`{proposer} proposed <b>{winner}</b>`): each
 * `<tag>…</tag>` is drawn by `tags[tag]`, so a translation may move it.
 */
export function Rich({
  text,
  tags,
}: {
  text: string;
  tags: Record<string, (inner: string) => React.ReactNode>;
}) {
  const parts: React.ReactNode[] = [];
  const marked = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (let m = marked.exec(text); m; m = marked.exec(text)) {
    parts.push(text.slice(last, m.index));
    const draw = tags[m[1]!];
    parts.push(<Fragment key={m.index}>{draw ? draw(m[2]!) : m[2]}</Fragment>);
    last = marked.lastIndex;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
