import { describe, expect, it } from "vitest";
import {
  amountLimitError,
  CURRENCIES,
  CURRENCY_TABLE,
  type Currency,
  feeMinor,
  formatMoney,
  guessCurrency,
  minorToSignedString,
  minorToUnits,
  parseCurrency,
  splitMinor,
  unitsToMinor,
} from "./currency";

describe("the table", () => {
  it("holds the ten currencies with their digits and limits", () => {
    expect(
      CURRENCIES.map((c) => [
        c,
        CURRENCY_TABLE[c].minorDigits,
        CURRENCY_TABLE[c].min,
        CURRENCY_TABLE[c].max,
      ]),
    ).toEqual([
      ["USD", 2, 1, 10_000],
      ["EUR", 2, 1, 10_000],
      ["GBP", 2, 1, 8_000],
      ["CHF", 2, 1, 9_000],
      ["CAD", 2, 1, 14_000],
      ["AUD", 2, 1, 15_000],
      ["SEK", 2, 10, 100_000],
      ["BRL", 2, 5, 50_000],
      ["MXN", 2, 20, 200_000],
      ["JPY", 0, 100, 1_500_000],
    ]);
  });

  it("knows only upper-case codes of the table", () => {
    expect(parseCurrency("EUR")).toBe("EUR");
    expect(parseCurrency("eur")).toBeNull();
    expect(parseCurrency("XYZ")).toBeNull();
    expect(parseCurrency("toString")).toBeNull();
    expect(parseCurrency(5)).toBeNull();
  });
});

// The fee in every currency: [currency, amount in whole units, fee, payout]
// in minor units, 2.5 % rounded half up to the currency's smallest unit.
const FEES: [Currency, number, number, number][] = [
  ["USD", 15, 38, 1462], // $0.375 → $0.38
  ["USD", 1, 3, 97], // $0.025 → $0.03
  ["USD", 10_000, 25_000, 975_000],
  ["EUR", 1000, 2500, 97_500],
  ["EUR", 3, 8, 292], // €0.075 → €0.08
  ["GBP", 7, 18, 682], // £0.175 → £0.18
  ["GBP", 8000, 20_000, 780_000],
  ["CHF", 9, 23, 877], // 0.225 → 0.23
  ["CAD", 13, 33, 1267], // 0.325 → 0.33
  ["AUD", 15_000, 37_500, 1_462_500],
  ["AUD", 11, 28, 1072], // 0.275 → 0.28
  ["SEK", 10, 25, 975],
  ["SEK", 99_999, 249_998, 9_749_902], // 2499.975 → 2499.98
  ["BRL", 5, 13, 487], // 0.125 → 0.13
  ["MXN", 21, 53, 2047], // 0.525 → 0.53
  ["JPY", 1001, 25, 976], // ¥25.025 → ¥25
  ["JPY", 100, 3, 97], // ¥2.5 → ¥3
  ["JPY", 1020, 26, 994], // ¥25.5 → ¥26
  ["JPY", 1_500_000, 37_500, 1_462_500],
];

describe("the fee", () => {
  it.each(FEES)(
    "%s %i: fee %i, payout %i (minor units)",
    (currency, units, fee, payout) => {
      const amount = unitsToMinor(units, currency);
      expect(feeMinor(amount)).toBe(fee);
      expect(splitMinor(amount)).toEqual({ feeMinor: fee, netMinor: payout });
    },
  );

  it("covers every currency of the table", () => {
    expect(new Set(FEES.map(([c]) => c))).toEqual(new Set(CURRENCIES));
  });

  it("is half up against an exact reference over each currency's range", () => {
    for (const currency of CURRENCIES) {
      const { min, max } = CURRENCY_TABLE[currency];
      const step = Math.max(1, Math.floor((max - min) / 5000));
      for (let units = min; units <= max; units += step) {
        const amount = unitsToMinor(units, currency);
        // amount × 2.5 % in tenths of the minor unit, exactly, in BigInt.
        const tenths = BigInt(amount) * 25n;
        const expected = Number((tenths + 500n) / 1000n);
        const { feeMinor: fee, netMinor: net } = splitMinor(amount);
        if (fee !== expected || fee + net !== amount)
          throw new Error(
            `${currency} ${units}: fee ${fee}, expected ${expected}`,
          );
      }
    }
  });
});

describe("minor units", () => {
  it("keeps yen whole and cents in hundredths", () => {
    expect(unitsToMinor(1001, "JPY")).toBe(1001);
    expect(unitsToMinor(12, "EUR")).toBe(1200);
    expect(minorToUnits(976, "JPY")).toBe(976);
    expect(minorToUnits(1250, "EUR")).toBe(12.5);
    expect(minorToSignedString(-1000, "JPY")).toBe("-1000");
    expect(minorToSignedString(-1250, "EUR")).toBe("-12.50");
    expect(minorToSignedString(5, "USD")).toBe("0.05");
  });
});

describe("limits", () => {
  it.each([
    [100, "JPY", null],
    [99, "JPY", "Amount must be at least ¥100."],
    [1_500_001, "JPY", "Amount can be at most ¥1,500,000."],
    [10_001, "USD", "Amount can be at most $10,000."],
    [10_000, "USD", null],
    [8001, "GBP", "Amount can be at most £8,000."],
    [9, "SEK", "Amount must be at least SEK 10."],
    [4, "BRL", "Amount must be at least R$5."],
    [19, "MXN", "Amount must be at least MX$20."],
    [15_001, "AUD", "Amount can be at most A$15,000."],
    [14_001, "CAD", "Amount can be at most CA$14,000."],
    [9001, "CHF", "Amount can be at most CHF 9,000."],
    [10_001, "EUR", "Amount can be at most €10,000."],
  ] as const)("%i %s: %s", (units, currency, message) => {
    expect(
      amountLimitError(units, currency)?.replace(/\u00a0/g, " ") ?? null,
    ).toBe(message);
  });
});

describe("formatting", () => {
  const nb = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
  it.each([
    [1001, "JPY", "en", false, "¥1,001"],
    [25, "JPY", "en", false, "¥25"],
    [100_000, "EUR", "de", true, "1.000 €"],
    [2500, "EUR", "de", true, "25 €"],
    [97_550, "EUR", "de", true, "975,50 €"],
    [123_450, "USD", "en", false, "$1,234.50"],
    [1000, "USD", "en", true, "$10"],
    [5_000_050, "BRL", "pt-BR", false, "R$ 50.000,50"],
    [1001, "JPY", "de", false, "1.001 ¥"],
  ] as const)("%i %s in %s → %s", (minor, currency, language, whole, text) => {
    expect(nb(formatMoney(minor, currency, language, { whole }))).toBe(text);
  });
});

describe("a person's first currency", () => {
  it.each([
    ["de", "EUR"],
    ["de-AT", "EUR"],
    ["es", "EUR"],
    ["es-ES", "EUR"],
    ["es-MX", "MXN"],
    ["pt-BR", "BRL"],
    ["en-GB", "GBP"],
    ["en-AU", "AUD"],
    ["en-CA", "CAD"],
    ["ja", "JPY"],
    ["ja-JP", "JPY"],
    ["en-US", "USD"],
    ["en", "USD"],
    ["fr-FR", "USD"],
    ["", "USD"],
    [null, "USD"],
    ["en-GB,en;q=0.9", "GBP"],
    ["en;q=0.5, de-DE;q=0.9", "EUR"],
    ["*", "USD"],
  ] as const)("%j → %s", (tag, currency) => {
    expect(guessCurrency(tag)).toBe(currency);
  });
});
