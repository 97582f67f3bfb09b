// The create and edit forms send the deadline as a date, an optional time and
// the person's time zone (docs/product-rules.md#bets); this turns them into the UTC instant
// the bet rules check, so the pages and the API share parseBetInput.
import { isDomainError, invalid } from "~/utils/errors";
import { isValidTimeZone } from "~/utils/dates";
import { zonedTimeToUtc } from "~/utils/zoned-time.server";
import type { BetFormValues } from "~/domain/bet";
import { readAmount } from "~/domain/amount-reader";
import { DEFAULT_CURRENCY, type Currency } from "~/domain/currency";
import type { Language } from "~/domain/language";
import { parseBetInput, type BetInput } from "./bet-input.server";

/** Without the time switch the deadline is the end of the chosen day. */
export const END_OF_DAY = "23:59:59";

export type { BetFormValues };

export function readBetForm(form: FormData): BetFormValues {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  return {
    title: text("title"),
    description: text("description"),
    amount: text("amount"),
    ...(form.has("currency") ? { currency: text("currency") } : {}),
    visibility: text("visibility"),
    deadlineDate: text("deadlineDate").trim(),
    deadlineTime: text("deadlineTime").trim(),
    includeTime: text("includeTime") === "on",
    timeZone: text("timeZone"),
    ...(form.has("refereeId") ? { refereeId: text("refereeId") } : {}),
  };
}

/** The deadline instant the form means, or null when it names no real date. */
export function formDeadline(values: BetFormValues): number | null {
  if (!values.deadlineDate) return null;
  const zone = isValidTimeZone(values.timeZone) ? values.timeZone : "UTC";
  const time =
    values.includeTime && values.deadlineTime
      ? values.deadlineTime
      : END_OF_DAY;
  return zonedTimeToUtc(values.deadlineDate, time, zone);
}

/**
 * Validates the form with the same rules (and messages) as the API. The
 * amount is read in the page's `language` first: what could mean two numbers
 * is refused with the form the language expects, never guessed. The bet's
 * currency is the select's, else `currency` (the person's at create, the
 * bet's at edit).
 */
export function parseBetForm(
  values: BetFormValues,
  mode: "create" | "edit",
  now = Date.now(),
  {
    language = "en",
    currency = DEFAULT_CURRENCY,
  }: { language?: Language; currency?: Currency } = {},
): BetInput {
  const reading = readAmount(values.amount, language);
  // Ambiguous or with decimals: the reader's own message; nothing typed, not
  // a number or not positive: the form's usual words (the schema's).
  const readerRefusal =
    !reading.ok &&
    (reading.reason === "ambiguous" || reading.reason === "decimal")
      ? reading.message
      : null;
  const deadline = formDeadline(values);
  const dateMessage =
    mode === "create" ? "Please select a date." : "Invalid date format";
  const dateError = !values.deadlineDate
    ? dateMessage
    : deadline === null
      ? mode === "create"
        ? "Please select a deadline."
        : "Invalid date format"
      : null;
  try {
    const input = parseBetInput(
      {
        title: values.title,
        description: values.description,
        amount: reading.ok
          ? reading.units
          : values.amount.trim() === ""
            ? undefined
            : "not a number",
        ...(values.currency !== undefined ? { currency: values.currency } : {}),
        visibility: values.visibility || undefined,
        deadline: deadline ?? "",
        ...(values.refereeId !== undefined
          ? { refereeId: values.refereeId }
          : {}),
      },
      mode,
      now,
      currency,
    );
    return input;
  } catch (error) {
    if (!isDomainError(error) || error.status !== 400) throw error;
    if (!dateError && !readerRefusal) throw error;
    throw invalid(error.message, {
      ...error.fieldErrors,
      ...(dateError ? { deadline: [dateError] } : {}),
      ...(readerRefusal ? { amount: [readerRefusal] } : {}),
    });
  }
}
