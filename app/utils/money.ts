// Money is integer cents everywhere (docs/money.md#integer-cents). Dollars appear only at the
// edges: JSON answers and what people read.

export const PLATFORM_FEE_BPS = 250; // 2.5%
export const MAX_BET_DOLLARS = 10_000;

export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function centsToDollars(cents: number): number {
  return cents / 100;
}

/**
 * fee = round_half_up(amount × 2.5%), in whole cents (docs/product-rules.md#paying),
 * and in any currency's smallest unit alike (app/domain/currency.ts `feeMinor`).
 */
export function feeCents(amountCents: number): number {
  // Integer arithmetic: amount × 250 / 10000, half up, no floating point.
  return Math.floor((amountCents * PLATFORM_FEE_BPS + 5_000) / 10_000);
}

export function splitPayout(amountCents: number) {
  const fee = feeCents(amountCents);
  return { feeCents: fee, netCents: amountCents - fee };
}

// US dollars as en-US's Intl.NumberFormat writes them ("$1,234.50",
// "-$5.00"), by hand: the first Intl formatter a page builds loads the
// browser's locale data on the main thread, and built when this module
// loaded, it was most of the hydrated pages' script evaluation
// (docs/decisions/archive/1055-main-thread-at-the-floor.md). money.test.ts holds
// it to Intl's output. Past whole numbers' exact range (or not a number):
// Intl itself, built on demand.
function usd(cents: number, wholeWithoutCents: boolean): string {
  if (!(Math.abs(cents) < 1e15))
    return intlUsd(wholeWithoutCents).format(cents / 100);
  const minus = cents < 0 || Object.is(cents, -0) ? "-" : "";
  const rounded = Math.round(Math.abs(cents));
  const dollars = String(Math.floor(rounded / 100)).replace(
    /\B(?=(\d{3})+$)/g,
    ",",
  );
  const rest = rounded % 100;
  if (wholeWithoutCents && rest === 0) return `${minus}$${dollars}`;
  return `${minus}$${dollars}.${String(rest).padStart(2, "0")}`;
}

const intl = new Map<boolean, Intl.NumberFormat>();
function intlUsd(wholeWithoutCents: boolean) {
  let format = intl.get(wholeWithoutCents);
  if (!format) {
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: "USD",
      ...(wholeWithoutCents && {
        minimumFractionDigits: 0,
        maximumFractionDigits: 2,
      }),
    });
    intl.set(wholeWithoutCents, format);
  }
  return format;
}

/** "$1,234.50" */
export function formatCents(cents: number): string {
  return usd(cents, false);
}

/** "$10" for whole dollars, "$9.75" otherwise. */
export function formatCentsShort(cents: number): string {
  return cents % 100 === 0 ? usd(cents, true) : usd(cents, false);
}

/** A signed two-decimal string, "-100.00", for transaction JSON (docs/api.md). */
export function centsToSignedString(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Win rate: rounded percentage of wins, 0 when there are none (docs/product-rules.md#amounts-and-limits). */
export function winRate(wins: number, losses: number): number {
  if (wins === 0) return 0;
  return Math.round((wins / (wins + losses)) * 100);
}
