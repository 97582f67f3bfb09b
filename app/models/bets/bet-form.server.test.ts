import { describe, expect, it } from "vitest";
import { DomainError } from "~/utils/errors";
import {
  formDeadline,
  parseBetForm,
  type BetFormValues,
} from "./bet-form.server";

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

function values(over: Partial<BetFormValues> = {}): BetFormValues {
  return {
    title: "Who wins the derby",
    description: "Home team wins on Sunday",
    amount: "10",
    visibility: "public",
    deadlineDate: "2026-06-02",
    deadlineTime: "",
    includeTime: false,
    timeZone: "UTC",
    ...over,
  };
}

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("expected a refusal");
}

describe("formDeadline (docs/product-rules.md#bets)", () => {
  it("is 23:59:59 on the chosen day in the person's zone without the time switch", () => {
    expect(formDeadline(values())).toBe(Date.UTC(2026, 5, 2, 23, 59, 59));
    expect(formDeadline(values({ timeZone: "Europe/Paris" }))).toBe(
      Date.UTC(2026, 5, 2, 21, 59, 59),
    );
    expect(formDeadline(values({ timeZone: "America/New_York" }))).toBe(
      Date.UTC(2026, 5, 3, 3, 59, 59),
    );
  });

  it("uses the time only when the switch is on", () => {
    expect(formDeadline(values({ deadlineTime: "08:30" }))).toBe(
      Date.UTC(2026, 5, 2, 23, 59, 59),
    );
    expect(
      formDeadline(values({ deadlineTime: "08:30", includeTime: true })),
    ).toBe(Date.UTC(2026, 5, 2, 8, 30, 0));
  });

  it("falls back to UTC for an unknown zone and is null for an impossible date", () => {
    expect(formDeadline(values({ timeZone: "Mars/Base" }))).toBe(
      Date.UTC(2026, 5, 2, 23, 59, 59),
    );
    expect(formDeadline(values({ deadlineDate: "2026-02-31" }))).toBeNull();
    expect(formDeadline(values({ deadlineDate: "" }))).toBeNull();
  });
});

describe("parseBetForm", () => {
  it("gives the model's input in cents with the zoned deadline", () => {
    expect(parseBetForm(values({ amount: "25" }), "create", NOW)).toEqual({
      title: "Who wins the derby",
      description: "Home team wins on Sunday",
      amountCents: 2500,
      currency: "USD",
      deadline: Date.UTC(2026, 5, 2, 23, 59, 59),
      visibility: "public",
    });
  });

  it("reads the amount in the page's language and keeps it in the currency's smallest unit", () => {
    const read = (
      amount: string,
      language: "en" | "de" | "es" | "pt-BR",
      currency?: string,
      fallback?: "USD" | "EUR" | "JPY",
    ) =>
      parseBetForm(values({ amount, currency }), "create", NOW, {
        language,
        currency: fallback,
      });
    expect(read("1.000", "de", "EUR")).toMatchObject({
      amountCents: 100_000,
      currency: "EUR",
    });
    expect(read("1,001", "en", "JPY")).toMatchObject({
      amountCents: 1001,
      currency: "JPY",
    });
    // No select on the form: the person's currency.
    expect(read("2 000", "pt-BR", undefined, "JPY")).toMatchObject({
      amountCents: 2000,
      currency: "JPY",
    });
  });

  it.each([
    ["1.000", "en", "USD", "Write one thousand as 1,000 or 1000."],
    ["1,000", "de", "EUR", "Write one thousand as 1.000 or 1000."],
    ["12,50", "de", "EUR", "Amounts are whole numbers: write 12, not 12,50."],
    ["1,500,001", "en", "JPY", "Amount can be at most ¥1,500,000."],
    ["99", "en", "JPY", "Amount must be at least ¥100."],
    ["10", "en", "XYZ", "Unknown currency"],
  ] as const)(
    "refuses %j in %s (%s) with %j, keeping the other field errors",
    (amount, language, currency, message) => {
      const error = refusal(() =>
        parseBetForm(values({ amount, currency, title: "x" }), "create", NOW, {
          language,
        }),
      );
      expect(error.status).toBe(400);
      const field = currency === "XYZ" ? "currency" : "amount";
      expect(error.fieldErrors?.[field]).toEqual([message]);
      if (currency !== "XYZ")
        expect(error.fieldErrors?.title).toEqual([
          "Title must be at least 2 characters.",
        ]);
    },
  );

  it("says 'Please select a date.' for an empty date and keeps the other field errors", () => {
    const error = refusal(() =>
      parseBetForm(values({ deadlineDate: "", title: "x" }), "create", NOW),
    );
    expect(error.status).toBe(400);
    expect(error.message).toBe("Please check your form inputs and try again");
    expect(error.fieldErrors).toEqual({
      title: ["Title must be at least 2 characters."],
      deadline: ["Please select a date."],
    });
  });

  it("refuses a deadline in the past with 'Deadline must be in the future'", () => {
    const error = refusal(() =>
      parseBetForm(values({ deadlineDate: "2026-05-31" }), "create", NOW),
    );
    expect(error.message).toBe("Deadline must be in the future");
  });

  it("says 'Please select visibility.' and 'Amount must be a positive number.' for missing values", () => {
    const error = refusal(() =>
      parseBetForm(values({ visibility: "", amount: "" }), "create", NOW),
    );
    expect(error.fieldErrors).toEqual({
      amount: ["Amount must be a positive number."],
      visibility: ["Please select visibility."],
    });
  });

  it("uses the edit messages in edit mode, including 'Invalid date format'", () => {
    const error = refusal(() =>
      parseBetForm(
        values({ title: "ab", deadlineDate: "2026-13-40" }),
        "edit",
        NOW,
      ),
    );
    expect(error.message).toBe("Error updating bet");
    expect(error.fieldErrors).toEqual({
      title: ["Title must be at least 3 characters"],
      deadline: ["Invalid date format"],
    });
  });
});
