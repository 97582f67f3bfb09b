// The fields the create and edit screens share: every one a native input with
// native constraints, validated again on the server. JavaScript only adds the
// live fee preview, the time switch behaviour and the browser's time zone.
import { useEffect, useState } from "react";
import type { BetFormValues } from "~/domain/bet";
import { ErrorList, Field, TextareaField } from "~/components/forms";
import { FeePreview } from "./fee-preview";
import {
  CURRENCIES,
  currencySymbol,
  isCurrency,
  type Currency,
} from "~/domain/currency";
import type { Language } from "~/domain/language";
import { useT } from "../i18n";
import { useHydrated } from "~/components/use-hydrated";
import { browserTimeZone } from "~/utils/browser-time-zone";

export const COMMON_TIME_ZONES = [
  "UTC",
  "America/Los_Angeles",
  "America/Denver",
  "America/Chicago",
  "America/New_York",
  "America/Sao_Paulo",
  "Europe/London",
  "Europe/Paris",
  "Europe/Berlin",
  "Africa/Johannesburg",
  "Asia/Dubai",
  "Asia/Kolkata",
  "Asia/Singapore",
  "Asia/Tokyo",
  "Australia/Sydney",
  "Pacific/Auckland",
];

function nowHHMM() {
  const d = new Date();
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

export function BetFormFields({
  defaults,
  errors,
  mode,
  todayDate,
  friends = [],
  currency,
  language = "en",
  currencyFixed = false,
}: {
  defaults: BetFormValues;
  errors: Record<string, string[] | undefined>;
  mode: "create" | "edit";
  todayDate: string;
  /** Who may referee (docs/product-rules.md#referee): the creator's friends. */
  friends?: { id: number; username: string }[];
  /** The bet's currency, or the person's for a new bet (docs/product-rules.md#currencies). */
  currency: Currency;
  /** The page's language: the amount is read and money written in it. */
  language?: Language;
  /** A bet someone joined keeps its currency: no select. */
  currencyFixed?: boolean;
}) {
  const hydrated = useHydrated();
  const [amount, setAmount] = useState(defaults.amount);
  const [chosen, setChosen] = useState<Currency>(
    isCurrency(defaults.currency) ? defaults.currency : currency,
  );
  const [includeTime, setIncludeTime] = useState(defaults.includeTime);
  const [time, setTime] = useState(defaults.deadlineTime);
  const [browserZone, setBrowserZone] = useState<string | null>(null);
  useEffect(() => {
    // An amount typed before the page hydrated (the scripts load after the
    // content, docs/decisions/archive/0800-first-visit-paints-from-the-html.md) is in the field but not yet in state.
    const typed = (
      document.getElementById("bet-amount") as HTMLInputElement | null
    )?.value;
    if (typed !== undefined) setAmount(typed);
    const picked = (
      document.getElementById("bet-currency") as HTMLSelectElement | null
    )?.value;
    if (isCurrency(picked)) setChosen(picked);
    setBrowserZone(browserTimeZone());
  }, []);
  const zones = COMMON_TIME_ZONES.includes(defaults.timeZone)
    ? COMMON_TIME_ZONES
    : [defaults.timeZone, ...COMMON_TIME_ZONES];
  const t = useT();
  const titleMin = mode === "create" ? 2 : 3;
  const descriptionMin = mode === "create" ? 2 : 10;

  return (
    <>
      <Field
        label={t("betForm.title")}
        errors={errors.title}
        inputProps={{
          name: "title",
          id: "bet-title",
          required: true,
          minLength: titleMin,
          maxLength: 100,
          defaultValue: defaults.title,
          placeholder: t("betForm.titlePlaceholder"),
        }}
      />
      <TextareaField
        label={t("betForm.description")}
        errors={errors.description}
        textareaProps={{
          name: "description",
          id: "bet-description",
          required: true,
          minLength: descriptionMin,
          maxLength: 1000,
          defaultValue: defaults.description,
          placeholder: t("betForm.descriptionPlaceholder"),
        }}
      />
      <div>
        {currencyFixed ? null : (
          <div className="mb-3">
            <label htmlFor="bet-currency" className="label">
              {t("betForm.currency")}
            </label>
            <select
              id="bet-currency"
              name="currency"
              className="input"
              defaultValue={chosen}
              onChange={(e) => {
                const c = e.currentTarget.value;
                if (isCurrency(c)) setChosen(c);
              }}
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <ErrorList errors={errors.currency} />
          </div>
        )}
        {/* Text, not type=number: the amount is read the page's language's
            way on the server (docs/product-rules.md#amounts-typed-the-local-way), and a
            refused amount comes back exactly as typed. */}
        <Field
          label={t("betForm.amount", {
            symbol: currencySymbol(chosen, language),
          })}
          errors={errors.amount}
          inputProps={{
            name: "amount",
            id: "bet-amount",
            type: "text",
            inputMode: "numeric",
            autoComplete: "off",
            required: true,
            defaultValue: defaults.amount,
            onChange: (e) => setAmount(e.currentTarget.value),
          }}
        />
        <FeePreview amount={amount} currency={chosen} language={language} />
      </div>
      <fieldset className="space-y-3">
        <legend className="label">{t("betForm.deadline")}</legend>
        <Field
          label={t("betForm.deadlineDate")}
          errors={errors.deadline}
          hint={t("betForm.deadlineHint")}
          inputProps={{
            name: "deadlineDate",
            id: "bet-deadline-date",
            type: "date",
            required: true,
            min: todayDate,
            defaultValue: defaults.deadlineDate,
          }}
        />
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            name="includeTime"
            role="switch"
            className="peer sr-only"
            checked={includeTime}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setIncludeTime(on);
              setTime(on ? nowHHMM() : "");
            }}
          />
          <span
            aria-hidden="true"
            className="relative inline-flex h-6 w-11 shrink-0 rounded-full bg-slate-300 transition-colors peer-checked:bg-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600 after:absolute after:left-0.5 after:top-0.5 after:size-5 after:rounded-full after:bg-white after:transition-transform peer-checked:after:translate-x-5"
          />
          {t("betForm.includeTime")}
        </label>
        <Field
          label={t("betForm.deadlineTime")}
          errors={errors.deadlineTime}
          hint={hydrated ? undefined : t("betForm.timeHint")}
          inputProps={{
            name: "deadlineTime",
            id: "bet-deadline-time",
            type: "time",
            value: time,
            // Without JavaScript the checkbox decides on the server instead.
            disabled: hydrated && !includeTime,
            onChange: (e) => setTime(e.currentTarget.value),
          }}
        />
        {hydrated && browserZone ? (
          <input type="hidden" name="timeZone" value={browserZone} />
        ) : (
          <div>
            <label htmlFor="bet-time-zone" className="label">
              {t("betForm.timeZone")}
            </label>
            <select
              id="bet-time-zone"
              name="timeZone"
              className="input"
              defaultValue={defaults.timeZone}
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replace(/_/g, " ")}
                </option>
              ))}
            </select>
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend className="label">{t("betForm.visibility")}</legend>
        <div className="grid grid-cols-2 gap-2">
          {(["public", "private"] as const).map((v) => (
            <label
              key={v}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="visibility"
                value={v}
                required
                defaultChecked={defaults.visibility === v}
              />
              {v === "public" ? t("betForm.public") : t("betForm.private")}
            </label>
          ))}
        </div>
        <p className="hint">{t("betForm.publicHint")}</p>
        <ErrorList errors={errors.visibility} />
      </fieldset>
      <div>
        <label htmlFor="bet-referee" className="label">
          {t("betForm.referee")}
        </label>
        <select
          id="bet-referee"
          name="refereeId"
          className="input"
          defaultValue={defaults.refereeId ?? ""}
          aria-describedby="bet-referee-hint"
        >
          <option value="">{t("betForm.noReferee")}</option>
          {friends.map((f) => (
            <option key={f.id} value={String(f.id)}>
              {f.username}
            </option>
          ))}
        </select>
        <p id="bet-referee-hint" className="hint">
          {friends.length
            ? t("betForm.refereeHint")
            : t("betForm.refereeHintNoFriends")}
        </p>
        <ErrorList errors={errors.refereeId} />
      </div>
    </>
  );
}
