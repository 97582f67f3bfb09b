// Every message exists in every language, with the same placeholders as the
// English one (docs/product-rules.md#languages): a key missing from a
// catalog, one no page asks for any more, or a translation that drops or
// renames a `{placeholder}` fails here.
import { describe, expect, it } from "vitest";
import { compileMessage } from "@lingui/message-utils/compileMessage";
import { LANGUAGES } from "~/domain/language";
import fs from "node:fs";
import path from "node:path";
import { CATALOGS } from "~/framework/catalogs.server";
import { CATALOG_FILES } from "~/locales/catalog-files";

/** The argument names a message uses (`{name}`, `{count, plural, …}`), sorted. */
export function placeholdersOf(message: string): string[] {
  const names = new Set<string>();
  // A message is a list of parts: text (a string) or a token, [name] or
  // [name, format, {branch: parts}]; `#` is a plural's own number.
  const walk = (parts: unknown): void => {
    if (!Array.isArray(parts)) return;
    for (const part of parts) {
      if (!Array.isArray(part)) continue;
      const [name, , options] = part as [string, unknown, unknown];
      if (name !== "#") names.add(name);
      if (options && typeof options === "object")
        for (const branch of Object.values(options)) walk(branch);
    }
  };
  walk(compileMessage(message));
  return [...names].sort();
}

describe("message catalogs", () => {
  const english = CATALOGS.en;

  it.each(LANGUAGES)("every file of %s is read", (language) => {
    const folder = path.resolve(__dirname, "../../app/locales", language);
    const files = fs.readdirSync(folder).filter((f) => f.endsWith(".json"));
    expect(Object.keys(CATALOG_FILES[language]).sort()).toEqual(files.sort());
  });

  it("reads placeholders through plurals", () => {
    expect(
      placeholdersOf(
        "Hi {name}: {count, plural, one {# bet} other {# bets of {who}}}",
      ),
    ).toEqual(["count", "name", "who"]);
    expect(placeholdersOf("Home")).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== "en"))(
    "%s has every English message, no other, with the same placeholders",
    (language) => {
      const catalog = CATALOGS[language];
      const missing = Object.keys(english).filter((k) => !(k in catalog));
      const extra = Object.keys(catalog).filter((k) => !(k in english));
      expect(missing, `missing from ${language}`).toEqual([]);
      expect(extra, `only in ${language}`).toEqual([]);
      const differing = Object.keys(english).filter(
        (key) =>
          placeholdersOf(english[key]!).join() !==
          placeholdersOf(catalog[key]!).join(),
      );
      expect(differing, `placeholders differ in ${language}`).toEqual([]);
      // The marked words a page draws (<b>…</b>, <t>…</t>): the same marks.
      const marks = (m: string) => [...m.matchAll(/<\/?\w+>/g)].sort().join();
      const marked = Object.keys(english).filter(
        (key) => marks(english[key]!) !== marks(catalog[key]!),
      );
      expect(marked, `marks differ in ${language}`).toEqual([]);
      const empty = Object.keys(catalog).filter((k) => !catalog[k]!.trim());
      expect(empty, `empty in ${language}`).toEqual([]);
    },
  );
});
