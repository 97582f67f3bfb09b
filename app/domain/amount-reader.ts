// Client-safe: a bet amount as a person types it in their language, read
// without ever guessing (docs/product-rules.md#amounts-typed-the-local-way,
// docs/decisions/1101-how-amounts-are-read.md). `1.000` is one thousand in
// German, Spanish and Portuguese, `1,000` in English; spaces and apostrophes
// group digits in any language. Whatever could mean two different numbers is
// refused with the form the language expects, so an amount is never read
// 1,000 times too large or too small. Amounts are whole units.
import type { Language } from "./language";

export type AmountReading =
  | { ok: true; units: number }
  | {
      ok: false;
      /**
       * missing: nothing typed; not-a-number: not digits and marks;
       * not-positive: zero or less; ambiguous: a mark that could mean two
       * numbers or sits in the wrong place; decimal: a part after the
       * decimal mark (amounts are whole).
       */
      reason:
        "missing" | "not-a-number" | "not-positive" | "ambiguous" | "decimal";
      message: string;
    };

/** The language's marks: the one that groups thousands and the decimal one. */
export function amountMarks(language: Language) {
  return language === "en"
    ? { group: ",", decimal: "." }
    : { group: ".", decimal: "," };
}

/** 'Write one thousand as 1.000 or 1000.': the expected form, in the language's marks. */
export function expectedAmountForm(language: Language): string {
  return `Write one thousand as 1${amountMarks(language).group}000 or 1000.`;
}

export const AMOUNT_NOT_A_NUMBER = "Amount must be a positive number.";

// Spaces (plain, no-break, narrow no-break, thin) and apostrophes (straight
// and typographic) group digits in every language.
const NEUTRAL_GROUP = /^[ \u00a0\u202f\u2009'\u2019]$/;

/** Reads a typed amount in a language: whole units, or why not. */
export function readAmount(typed: string, language: Language): AmountReading {
  const { group, decimal } = amountMarks(language);
  const text = typed.trim();
  if (text === "")
    return { ok: false, reason: "missing", message: AMOUNT_NOT_A_NUMBER };
  let body = text;
  let negative = false;
  if (body.startsWith("-") || body.startsWith("\u2212")) {
    negative = true;
    body = body.slice(1).trimStart();
  } else if (body.startsWith("+")) {
    body = body.slice(1).trimStart();
  }
  // Digit runs and the single marks between them; nothing else.
  const parts = body.split(/([^0-9])/);
  const digits: string[] = [];
  const marks: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) digits.push(parts[i]!);
    else marks.push(parts[i]!);
  }
  const knownMark = (m: string) =>
    m === "." || m === "," || NEUTRAL_GROUP.test(m);
  if (body === "" || !marks.every(knownMark))
    return { ok: false, reason: "not-a-number", message: AMOUNT_NOT_A_NUMBER };
  const ambiguous = (): AmountReading => ({
    ok: false,
    reason: "ambiguous",
    message: expectedAmountForm(language),
  });
  // A mark at either end, or two marks together ("1..000", ",5").
  if (digits.some((d) => d === "")) return ambiguous();

  const decimalAt = marks
    .map((m, i) => (m === decimal ? i : -1))
    .filter((i) => i >= 0);
  if (decimalAt.length > 1) return ambiguous();
  let wholeDigits = digits;
  let wholeMarks = marks;
  let fraction: string | null = null;
  if (decimalAt.length === 1) {
    const at = decimalAt[0]!;
    // The decimal mark must be the last mark, and three digits after it
    // are how the other languages group a thousand: never read either way.
    if (at !== marks.length - 1) return ambiguous();
    fraction = digits[digits.length - 1]!;
    if (fraction.length === 3) return ambiguous();
    wholeDigits = digits.slice(0, -1);
    wholeMarks = marks.slice(0, -1);
  }
  // Grouping: one kind of mark, every group after the first of three digits,
  // the first of one to three.
  if (wholeMarks.length > 0) {
    const kinds = new Set(wholeMarks);
    const mark = wholeMarks[0]!;
    if (kinds.size > 1 || !(mark === group || NEUTRAL_GROUP.test(mark)))
      return ambiguous();
    if (
      wholeDigits[0]!.length > 3 ||
      wholeDigits.slice(1).some((d) => d.length !== 3)
    )
      return ambiguous();
  }
  const wholeText = wholeDigits.join("");
  if (fraction !== null) {
    return {
      ok: false,
      reason: "decimal",
      message: decimalMessage(wholeText, text, language),
    };
  }
  const units = Number(wholeText);
  if (negative || units <= 0)
    return { ok: false, reason: "not-positive", message: AMOUNT_NOT_A_NUMBER };
  return { ok: true, units };
}

/** 'Amounts are whole numbers: write 12, not 12,50.' in the language's grouping. */
function decimalMessage(wholeText: string, typed: string, language: Language) {
  const whole = Number(wholeText);
  if (!(whole > 0)) return "Amounts are whole numbers, without decimals.";
  const { group } = amountMarks(language);
  const grouped = wholeText
    .replace(/^0+(?=\d)/, "")
    .replace(/\B(?=(\d{3})+$)/g, group);
  return `Amounts are whole numbers: write ${grouped}, not ${typed}.`;
}
