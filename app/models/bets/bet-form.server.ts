// The create and edit forms send the deadline as a date, an optional time and
// the person's time zone (docs/product-rules.md#bets); this turns them into the UTC instant
// the bet rules check, so the pages and the API share parseBetInput.
import { isDomainError, invalid } from "~/utils/errors";
import { isValidTimeZone } from "~/utils/dates";
import { zonedTimeToUtc } from "~/utils/zoned-time.server";
import type { BetFormValues } from "~/domain/bet";
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

/** Validates the form with the same rules (and messages) as the API. */
export function parseBetForm(
  values: BetFormValues,
  mode: "create" | "edit",
  now = Date.now(),
): BetInput {
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
        amount: values.amount.trim() === "" ? undefined : values.amount,
        visibility: values.visibility || undefined,
        deadline: deadline ?? "",
        ...(values.refereeId !== undefined
          ? { refereeId: values.refereeId }
          : {}),
      },
      mode,
      now,
    );
    return input;
  } catch (error) {
    if (!isDomainError(error) || error.status !== 400 || !dateError)
      throw error;
    throw invalid(error.message, {
      ...error.fieldErrors,
      deadline: [dateError],
    });
  }
}
