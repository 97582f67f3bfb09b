// The language picker: a plain form (it works without JavaScript, and with
// it the page changes language without a reload) that sets the `lang`
// cookie and comes back to this page (docs/product-rules.md#languages).
import { href, useLocation } from "react-router";
import { useId } from "react";
import { KeyedForm } from "./keyed-form";
import { useLanguage, useT } from "./i18n";
import { LANGUAGE_NAMES, LANGUAGES } from "~/domain/language";

export function LanguagePicker({ className = "" }: { className?: string }) {
  const t = useT();
  const language = useLanguage();
  const { pathname, search } = useLocation();
  const id = useId();
  return (
    <KeyedForm
      action={href("/language")}
      className={`flex flex-wrap items-center gap-2 ${className}`}
      data-language-picker=""
    >
      <input type="hidden" name="returnTo" value={pathname + search} />
      <label htmlFor={id} className="text-sm text-slate-600">
        {t("language.label")}
      </label>
      <select
        id={id}
        key={language}
        name="language"
        defaultValue={language}
        className="input w-auto min-h-11"
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
      <button type="submit" className="btn-secondary min-h-11">
        {t("language.submit")}
      </button>
    </KeyedForm>
  );
}

/** Every page's footer: the language picker. */
export function SiteFooter() {
  return (
    <footer className="mx-auto max-w-3xl px-4 pb-24 pt-2">
      <LanguagePicker />
    </footer>
  );
}
