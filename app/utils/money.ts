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

/** fee = round_half_up(amount × 2.5%), in whole cents (docs/product-rules.md#paying). */
export function feeCents(amountCents: number): number {
  // Integer arithmetic: amount × 250 / 10000, half up, no floating point.
  return Math.floor((amountCents * PLATFORM_FEE_BPS + 5_000) / 10_000);
}

export function splitPayout(amountCents: number) {
  const fee = feeCents(amountCents);
  return { feeCents: fee, netCents: amountCents - fee };
}

const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
});
const usdWhole = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

/** "$1,234.50" */
export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** "$10" for whole dollars, "$9.75" otherwise. */
export function formatCentsShort(cents: number): string {
  return cents % 100 === 0
    ? usdWhole.format(cents / 100)
    : usd.format(cents / 100);
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
