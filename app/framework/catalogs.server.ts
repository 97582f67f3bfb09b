// The message catalogs (app/locales/<language>/messages.json: ICU messages a
// translator edits), compiled once at start-up for @lingui/core, so the
// browser gets ready messages and no message parser
// (docs/decisions/1110-messages-with-lingui-core.md).
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { setupI18n, type Messages } from "@lingui/core";
import type { Language } from "~/domain/language";
import en from "~/locales/en/messages.json";
import es from "~/locales/es/messages.json";
import de from "~/locales/de/messages.json";
import ptBR from "~/locales/pt-BR/messages.json";

/** Each language's messages as written, key → ICU message. */
export const CATALOGS: Readonly<Record<Language, Record<string, string>>> = {
  en,
  es,
  de,
  "pt-BR": ptBR,
};

function compile(catalog: Record<string, string>): Messages {
  return Object.fromEntries(
    Object.entries(catalog).map(([key, message]) => [
      key,
      compileMessage(message),
    ]),
  );
}

const compiled = new Map<Language, Messages>();

/** One language's messages, compiled (the page carries only its own). */
export function compiledMessages(language: Language): Messages {
  let messages = compiled.get(language);
  if (!messages) {
    messages = compile(CATALOGS[language]);
    compiled.set(language, messages);
  }
  return messages;
}

/**
 * The server's message function in one language, for words an action
 * sends (a toast); key and values as `useT()`'s.
 */
export function serverT(language: Language) {
  const i18n = setupI18n({
    locale: language,
    messages: { [language]: compiledMessages(language) },
  });
  return (key: keyof typeof en, values?: Record<string, string | number>) =>
    i18n._(key, values);
}
