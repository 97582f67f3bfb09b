// Writes an activity's words (a catalog key and values, saved with the
// event) in one language: amounts in the bet's currency and instants the
// language's way (docs/product-rules.md#languages).
import type { ActivityText, TextValue } from "~/domain/activity-text";
import { formatMoney } from "~/domain/currency";
import { intlLocale, type Language } from "~/domain/language";
import { serverT } from "~/framework/catalogs.server";
import { formatDateTime } from "~/utils/dates";
import type { MessageKey } from "~/locales/keys";

/** Words to write: a key of the catalogs and its values. */
export type Words = ActivityText<MessageKey>;

type T = ReturnType<typeof serverT>;
const translators = new Map<Language, T>();

/** The server's message function in `language`, built once per language. */
export function messagesIn(language: Language): T {
  let t = translators.get(language);
  if (!t) {
    t = serverT(language);
    translators.set(language, t);
  }
  return t;
}

function valueIn(value: TextValue, language: Language): string | number {
  if (typeof value === "string" || typeof value === "number") return value;
  if ("money" in value)
    return formatMoney(value.money, value.currency, language);
  if ("at" in value)
    return formatDateTime(value.at, "UTC", intlLocale(language));
  return writeText(value, language);
}

/** The words in `language`. */
export function writeText(text: ActivityText, language: Language): string {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values ?? {}))
    values[name] = valueIn(value, language);
  return messagesIn(language)(text.key as MessageKey, values);
}
