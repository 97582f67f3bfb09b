import { describe, expect, it } from "vitest";
import { readAmount, type AmountReading } from "./amount-reader";
import type { Language } from "./language";

const EN_FORM = "Write one thousand as 1,000 or 1000.";
const DE_FORM = "Write one thousand as 1.000 or 1000.";
const NOT_A_NUMBER = "Amount must be a positive number.";

type Row = [typed: string, language: Language, result: number | string];

// The reading of every amount in every language: a number of whole units,
// or the refusal's message. No row reads a number 1,000 times off.
const ROWS: Row[] = [
  // Plain digits mean the same everywhere.
  ["1000", "en", 1000],
  ["1000", "de", 1000],
  ["1000", "es", 1000],
  ["1000", "pt-BR", 1000],
  ["  25 ", "de", 25],
  ["007", "en", 7],
  ["+40", "en", 40],
  // One thousand, the local way.
  ["1,000", "en", 1000],
  ["1.000", "de", 1000],
  ["1.000", "es", 1000],
  ["1.000", "pt-BR", 1000],
  ["1,000,000", "en", 1_000_000],
  ["1.500.000", "de", 1_500_000],
  ["12.345", "es", 12_345],
  // Spaces and apostrophes group in every language.
  ["1 000", "en", 1000],
  ["1 000", "de", 1000],
  ["1\u00a0000", "es", 1000],
  ["1\u202f000", "pt-BR", 1000],
  ["1'000", "en", 1000],
  ["1'000'000", "de", 1_000_000],
  ["1\u2019000", "pt-BR", 1000],
  ["1 500 000", "en", 1_500_000],
  // The other language's thousand: could be one, or one thousand.
  ["1.000", "en", EN_FORM],
  ["1,000", "de", DE_FORM],
  ["1,000", "es", DE_FORM],
  ["1,000", "pt-BR", DE_FORM],
  ["1.000.000", "en", EN_FORM],
  ["1,000,000", "de", DE_FORM],
  ["10000.000", "en", EN_FORM],
  // Grouping marks in the wrong place.
  ["1,00", "en", EN_FORM],
  ["10,0000", "en", EN_FORM],
  ["1000,000", "en", EN_FORM],
  ["1.00", "de", DE_FORM],
  ["12.50", "de", DE_FORM],
  ["12.50", "pt-BR", DE_FORM],
  ["12,50", "en", EN_FORM],
  ["1,5", "en", EN_FORM],
  ["1 00", "en", EN_FORM],
  ["1'0000", "de", DE_FORM],
  // Two kinds of grouping in one amount, or the decimal mark before a group.
  ["1,000 000", "en", EN_FORM],
  ["1.000'000", "de", DE_FORM],
  ["1.000,50", "en", EN_FORM],
  ["1,000.50", "de", DE_FORM],
  // Marks at the ends or side by side.
  [",500", "en", EN_FORM],
  ["500.", "de", DE_FORM],
  ["1,,000", "en", EN_FORM],
  ["1..000", "de", DE_FORM],
  // A decimal part: amounts are whole.
  ["12.50", "en", "Amounts are whole numbers: write 12, not 12.50."],
  ["12.5", "en", "Amounts are whole numbers: write 12, not 12.5."],
  ["12.00", "en", "Amounts are whole numbers: write 12, not 12.00."],
  ["12,50", "de", "Amounts are whole numbers: write 12, not 12,50."],
  ["12,5", "es", "Amounts are whole numbers: write 12, not 12,5."],
  [
    "1.234,56",
    "pt-BR",
    "Amounts are whole numbers: write 1.234, not 1.234,56.",
  ],
  ["1,234.56", "en", "Amounts are whole numbers: write 1,234, not 1,234.56."],
  ["1 234,5", "de", "Amounts are whole numbers: write 1.234, not 1 234,5."],
  ["0.50", "en", "Amounts are whole numbers, without decimals."],
  ["0,5", "de", "Amounts are whole numbers, without decimals."],
  // Not an amount.
  ["", "en", NOT_A_NUMBER],
  ["   ", "de", NOT_A_NUMBER],
  ["abc", "en", NOT_A_NUMBER],
  ["1e3", "en", NOT_A_NUMBER],
  ["0x10", "de", NOT_A_NUMBER],
  ["$10", "en", NOT_A_NUMBER],
  ["10 €", "de", NOT_A_NUMBER],
  ["١٠٠", "en", NOT_A_NUMBER],
  ["-", "en", NOT_A_NUMBER],
  ["0", "en", NOT_A_NUMBER],
  ["000", "de", NOT_A_NUMBER],
  ["-5", "en", NOT_A_NUMBER],
  ["−1.000", "de", NOT_A_NUMBER],
];

function resultOf(reading: AmountReading): number | string {
  return reading.ok ? reading.units : reading.message;
}

describe("readAmount", () => {
  it.each(ROWS)("%j in %s reads as %j", (typed, language, result) => {
    expect(resultOf(readAmount(typed, language))).toBe(result);
  });

  it("never reads a grouped thousand 1,000 times off in any language", () => {
    const languages: Language[] = ["en", "es", "de", "pt-BR"];
    for (const language of languages)
      for (const typed of ["1.000", "1,000", "1.000.000", "1,000,000"]) {
        const reading = readAmount(typed, language);
        if (reading.ok) expect(reading.units).toBeGreaterThanOrEqual(1000);
      }
  });

  it("names why it refused", () => {
    expect(readAmount("", "en")).toMatchObject({ reason: "missing" });
    expect(readAmount("1.000", "en")).toMatchObject({ reason: "ambiguous" });
    expect(readAmount("12,50", "de")).toMatchObject({ reason: "decimal" });
    expect(readAmount("-3", "de")).toMatchObject({ reason: "not-positive" });
    expect(readAmount("ten", "es")).toMatchObject({ reason: "not-a-number" });
  });
});
