// The message catalogs (app/locales/<language>/*.json: ICU messages a
// translator edits, a language's messages split over files by area, each
// named in app/locales/catalog-files.ts),
// compiled once at start-up for @lingui/core, so the browser gets ready
// messages and no message parser
// (docs/decisions/1110-messages-with-lingui-core.md). A page gets only the
// areas its routes name in `handle.messages` (docs/decisions/1111-messages-per-page.md).
import { createHash } from "node:crypto";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { setupI18n, type Messages } from "@lingui/core";
import { LANGUAGES, type Language } from "~/domain/language";
import type { MessageKey } from "~/locales/keys";
import { CATALOG_FILES } from "~/locales/catalog-files";

/** One language's files merged; a key written in two files is a mistake. */
function catalogOf(language: Language): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const messages of Object.values(CATALOG_FILES[language]))
    for (const [key, message] of Object.entries(messages)) {
      if (key in merged)
        throw new Error(`Message ${key} is written twice in ${language}`);
      merged[key] = message;
    }
  return merged;
}

/** Each language's messages as written, key → ICU message. */
export const CATALOGS: Readonly<Record<Language, Record<string, string>>> =
  Object.fromEntries(LANGUAGES.map((l) => [l, catalogOf(l)])) as Record<
    Language,
    Record<string, string>
  >;

/** A message's area: its key's first word ("bet" for `bet.title`). */
export const areaOf = (key: string) => key.slice(0, key.indexOf("."));

function compile(catalog: Record<string, string>): Messages {
  return Object.fromEntries(
    Object.entries(catalog).map(([key, message]) => [
      key,
      compileMessage(message),
    ]),
  );
}

const compiled = new Map<Language, Messages>();

/** One language's messages, compiled, every area. */
export function compiledMessages(language: Language): Messages {
  let messages = compiled.get(language);
  if (!messages) {
    messages = compile(CATALOGS[language]);
    compiled.set(language, messages);
  }
  return messages;
}

const perPage = new Map<string, Messages>();

/**
 * The messages of the named areas only: what a page carries to the browser
 * (its routes' `handle.messages`, the layout's included). Kept per set of
 * areas, so a page's messages are one object, built once.
 */
export function pageMessages(
  language: Language,
  areas: readonly string[],
): Messages {
  const wanted = [...new Set(areas)].sort();
  const key = `${language} ${wanted.join()}`;
  let messages = perPage.get(key);
  if (!messages) {
    const all = compiledMessages(language);
    const set = new Set(wanted);
    messages = Object.fromEntries(
      Object.entries(all).filter(([k]) => set.has(areaOf(k))),
    );
    perPage.set(key, messages);
  }
  return messages;
}

export type MessagesFile = { name: string; messages: Messages };
const files = new Map<string, MessagesFile>();

/**
 * A page's messages as a file of their own (its name `<areas>.<hash>.json`,
 * served at /messages/<language>/<name>), named by a hash of what it holds,
 * so a browser may keep it for ever: the document names it instead of
 * carrying the words, which it needs only to hydrate
 * (docs/decisions/1165-messages-in-a-file-of-their-own.md).
 */
export function pageMessagesFile(
  language: Language,
  areas: readonly string[] | null,
): MessagesFile {
  const wanted = [...new Set(areas ?? ALL_AREAS)].sort();
  const key = `${language} ${wanted.join()}`;
  let file = files.get(key);
  if (!file) {
    const messages = pageMessages(language, wanted);
    const hash = createHash("sha256")
      .update(JSON.stringify(messages))
      .digest("base64url")
      .slice(0, 12);
    file = { name: `${wanted.join(".")}.${hash}.json`, messages };
    files.set(key, file);
  }
  return file;
}

/** Every area any catalog has a key in. */
const ALL_AREAS = [...new Set(Object.keys(CATALOGS.en).map(areaOf))];

/** Whether `area` is one the catalogs have (a file's name is checked against it). */
export const isMessageArea = (area: string) => ALL_AREAS.includes(area);

type ServerT = (
  key: MessageKey,
  values?: Record<string, string | number>,
) => string;
const serverTranslators = new Map<Language, ServerT>();

/**
 * The server's message function in one language, for words an action
 * sends (a toast) or a loader words (a count, docs/decisions/1169-counts-worded-by-the-loader.md);
 * key and values as `useT()`'s. One per language, kept: setting up Lingui
 * costs more than the message.
 */
export function serverT(language: Language): ServerT {
  let t = serverTranslators.get(language);
  if (!t) {
    const i18n = setupI18n({
      locale: language,
      messages: { [language]: compiledMessages(language) },
    });
    t = (key, values) => i18n._(key, values);
    serverTranslators.set(language, t);
  }
  return t;
}
