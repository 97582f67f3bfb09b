// Client-safe facts about money in several currencies (docs/money.md#currencies):
// the table of currencies and their limits, integer minor units, the fee in
// the currency's own smallest unit, a person's first-guessed currency, and
// money written for a language. Pure: pages, models and /api read it alike.
import {
  feeCents,
  formatCents,
  formatCentsShort,
  PLATFORM_FEE_BPS,
} from "~/utils/money";
import { intlLocale, type Language } from "./language";

export { PLATFORM_FEE_BPS };

/**
 * Each currency a bet can be in: its digits after the point (a yen has
 * none), and the bet amount's limits in whole units (docs/product-rules.md#currencies).
 * `units` is the English word for whole units, for /api refusals.
 */
export const CURRENCY_TABLE = {
  USD: { minorDigits: 2, min: 1, max: 10_000, units: "dollars" },
  EUR: { minorDigits: 2, min: 1, max: 10_000, units: "euros" },
  GBP: { minorDigits: 2, min: 1, max: 8_000, units: "pounds" },
  CHF: { minorDigits: 2, min: 1, max: 9_000, units: "francs" },
  CAD: { minorDigits: 2, min: 1, max: 14_000, units: "dollars" },
  AUD: { minorDigits: 2, min: 1, max: 15_000, units: "dollars" },
  SEK: { minorDigits: 2, min: 10, max: 100_000, units: "kronor" },
  BRL: { minorDigits: 2, min: 5, max: 50_000, units: "reais" },
  MXN: { minorDigits: 2, min: 20, max: 200_000, units: "pesos" },
  JPY: { minorDigits: 0, min: 100, max: 1_500_000, units: "yen" },
} as const satisfies Record<
  string,
  { minorDigits: 0 | 2; min: number; max: number; units: string }
>;

export type Currency = keyof typeof CURRENCY_TABLE;
/** In the order a select lists them. */
export const CURRENCIES = Object.keys(CURRENCY_TABLE) as Currency[];
/** Bets made before currencies, and anyone we cannot guess for. */
export const DEFAULT_CURRENCY: Currency = "USD";
export const UNKNOWN_CURRENCY = "Unknown currency";

export function isCurrency(value: unknown): value is Currency {
  return typeof value === "string" && Object.hasOwn(CURRENCY_TABLE, value);
}

/** A currency as /api or a form sends it: exactly an upper-case code of the table, else null. */
export function parseCurrency(value: unknown): Currency | null {
  return isCurrency(value) ? value : null;
}

/** 100 for cents, 1 for yen. */
export function minorPerUnit(currency: Currency): number {
  return 10 ** CURRENCY_TABLE[currency].minorDigits;
}

/** Whole units (what a person types) to the integer minor units money is kept in. */
export function unitsToMinor(units: number, currency: Currency): number {
  return units * minorPerUnit(currency);
}

/** Minor units to a number of whole units for JSON (12.5 for 1250 cents, 1001 for ¥1,001). */
export function minorToUnits(minor: number, currency: Currency): number {
  const digits = CURRENCY_TABLE[currency].minorDigits;
  return digits === 0 ? minor : minor / 10 ** digits;
}

/** "-12.50" in EUR, "-1000" in JPY: a signed string with the currency's digits (docs/api.md). */
export function minorToSignedString(minor: number, currency: Currency): string {
  const digits = CURRENCY_TABLE[currency].minorDigits;
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(minor);
  if (digits === 0) return `${sign}${abs}`;
  const per = 10 ** digits;
  return `${sign}${Math.floor(abs / per)}.${String(abs % per).padStart(digits, "0")}`;
}

/**
 * The platform fee: 2.5 % of the amount, rounded half up to the currency's
 * smallest unit (¥1,001 → ¥25; $15.00 → $0.38). Integer arithmetic on minor
 * units, so the same rule serves every currency.
 */
export function feeMinor(amountMinor: number): number {
  // amount × 250 / 10000, half up, in integers: the rule dollars always had.
  return feeCents(amountMinor);
}

/** The fee and what the winner receives; fee + net is the amount exactly. */
export function splitMinor(amountMinor: number) {
  const fee = feeMinor(amountMinor);
  return { feeMinor: fee, netMinor: amountMinor - fee };
}

/** Why an amount of whole units is refused in a currency, or null when it is within its limits. */
export function amountLimitError(
  units: number,
  currency: Currency,
  language: Language = "en",
): string | null {
  const { min, max } = CURRENCY_TABLE[currency];
  if (units < min)
    return `Amount must be at least ${formatMoney(unitsToMinor(min, currency), currency, language, { whole: true })}.`;
  if (units > max)
    return `Amount can be at most ${formatMoney(unitsToMinor(max, currency), currency, language, { whole: true })}.`;
  return null;
}

// --- A person's first currency -------------------------------------------------

const BY_REGION: Record<string, Currency> = {
  "es-MX": "MXN",
  "en-GB": "GBP",
  "en-AU": "AUD",
  "en-CA": "CAD",
  "pt-BR": "BRL",
};
const BY_LANGUAGE: Record<string, Currency> = {
  de: "EUR",
  es: "EUR",
  pt: "BRL",
  ja: "JPY",
};

/**
 * A person's default currency guessed from a language tag ("de-AT", "es-MX",
 * "en-GB") or a whole `Accept-Language` header (its best tag): the region's
 * currency where the rule names one, else the language's, else US dollars.
 */
export function guessCurrency(
  tagOrHeader: string | null | undefined,
): Currency {
  const tag = bestTag(tagOrHeader ?? "");
  if (!tag) return DEFAULT_CURRENCY;
  const [language, region] = tag.split("-");
  const lang = language!.toLowerCase();
  if (region) {
    const byRegion = BY_REGION[`${lang}-${region.toUpperCase()}`];
    if (byRegion) return byRegion;
  }
  return BY_LANGUAGE[lang] ?? DEFAULT_CURRENCY;
}

/** The highest-q tag of an Accept-Language header (the first of equals); a bare tag is itself. */
function bestTag(header: string): string | null {
  let best: string | null = null;
  let bestQ = -1;
  for (const part of header.split(",")) {
    const [rawTag, ...params] = part.trim().split(";");
    const tag = rawTag!.trim();
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (Number.isFinite(q) && q > bestQ) {
      best = tag;
      bestQ = q;
    }
  }
  return best;
}

// --- Money as a person reads it ---------------------------------------------------

const formats = new Map<string, Intl.NumberFormat>();

/**
 * Money in a currency written for a language by `Intl` ("¥1,001",
 * "1.000,00 €", "R$ 50,00"). With `whole`, an amount of whole units drops its
 * zeros after the point ("$10", "1.000 €"). Formatters are built on first use
 * and kept.
 */
export function formatMoney(
  minor: number,
  currency: Currency,
  language: Language = "en",
  { whole = false }: { whole?: boolean } = {},
): string {
  // US dollars in English: written by hand, no Intl formatter built on the
  // page's main thread (utils/money.ts says why); the same text as Intl's.
  if (currency === "USD" && language === "en")
    return whole ? formatCentsShort(minor) : formatCents(minor);
  const digits = CURRENCY_TABLE[currency].minorDigits;
  const per = 10 ** digits;
  const dropDecimals = whole && minor % per === 0;
  const key = `${language}|${currency}|${dropDecimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(language), {
      style: "currency",
      currency,
      minimumFractionDigits: dropDecimals ? 0 : digits,
      maximumFractionDigits: digits,
    });
    formats.set(key, format);
  }
  return format.format(minor / per);
}

/** The sign a language writes before or after a currency's amounts ("$", "€", "¥", "CHF"). */
export function currencySymbol(currency: Currency, language: Language = "en") {
  if (currency === "USD" && language === "en") return "$";
  return (
    new Intl.NumberFormat(intlLocale(language), { style: "currency", currency })
      .formatToParts(0)
      .find((p) => p.type === "currency")?.value ?? currency
  );
}
